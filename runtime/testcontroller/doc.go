// Package testcontroller is the sandbox test controller of a seller:
// AdCP's comply_test_controller tool, with which compliance runners force
// state transitions (force_*), simulate delivery and spend (simulate_*),
// seed fixtures (seed_*) and shape the next response (force_*_arm)
// instead of waiting for real workflows. Sellers MUST NOT expose it in
// production: a Controller answers only the calls its Sandbox function
// accepts, and FORBIDDEN to every other.
//
// The package example registers a scenario hook and calls it as the
// compliance runner does.
//
// The seller implements the scenarios it supports as hooks; the controller
// does the protocol's part, per the comply-test-controller schemas of the
// server's spec version:
//
//   - list_scenarios answers the scenarios that have a hook (those the
//     version's ListScenariosSuccess admits);
//   - a scenario without a hook, or that the version does not define, is
//     UNKNOWN_SCENARIO; a request that fails the version's request schema
//     (missing params, a status the scenario's enum lacks, 3.1's required
//     account) is INVALID_PARAMS naming the first issue; a hook's
//     *ScenarioError is sent as it is (NOT_FOUND with current_state null,
//     INVALID_TRANSITION with the entity's state); any other error is
//     logged and answered INTERNAL_ERROR without a word of it. These are
//     success-shaped responses ({"success": false, "error": ...}), as the
//     schema defines them, not AdCP errors;
//   - a hook's Success (Transition, Simulation, Seeded, ...) is encoded
//     into the version's success arms
//     (StateTransitionSuccess, SimulationSuccess, ForcedDirectiveSuccess,
//     SeedSuccess), and the server validates them like any response;
//   - get_adcp_capabilities carries the compliance_testing block listing
//     the hooked scenarios the version's capability schema admits (3.0
//     lists only force_*_status and simulate_*), and none when no hook
//     qualifies.
//
// One scenario is the same for every seller with async tasks, and comes
// ready: TaskCompletion is the force_task_completion hook, recording the
// runner's result as the task's final answer (seller.Server.CompleteTask),
// which the task's status reads and webhook then carry.
//
// The tool is a raw tool of the server (seller.HandleRaw): its request
// schema is published as the MCP input schema, and the controller, not the
// server, answers schema violations (seller.RawTool.OwnsSchemaIssues).
// The package works with any spec version whose manifest has
// comply_test_controller; it imports no generated package.
package testcontroller
