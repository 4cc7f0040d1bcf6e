package testcontroller

// Scenario names of comply_test_controller. AdCP 3.0 defines the first
// fifteen; later versions add the rest (and leave the list open), and a
// Controller accepts any name its version's request schema admits.
const (
	ListScenarios            = "list_scenarios"
	ForceCreativeStatus      = "force_creative_status"
	ForceAccountStatus       = "force_account_status"
	ForceMediaBuyStatus      = "force_media_buy_status"
	ForceCreateMediaBuyArm   = "force_create_media_buy_arm"
	ForceTaskCompletion      = "force_task_completion"
	ForceSessionStatus       = "force_session_status"
	SimulateDelivery         = "simulate_delivery"
	SimulateBudgetSpend      = "simulate_budget_spend"
	SeedProduct              = "seed_product"
	SeedPricingOption        = "seed_pricing_option"
	SeedCreative             = "seed_creative"
	SeedPlan                 = "seed_plan"
	SeedMediaBuy             = "seed_media_buy"
	SeedCreativeFormat       = "seed_creative_format"
	ForceCreativePurge       = "force_creative_purge"
	ForceGetProductsArm      = "force_get_products_arm"
	ForceGetSignalsArm       = "force_get_signals_arm"
	SeedAccount              = "seed_account"
	SeedMeasurementCatalog   = "seed_measurement_catalog"
	ForceUpstreamUnavailable = "force_upstream_unavailable"
)

// ToolName is the controller's tool.
const ToolName = "comply_test_controller"
