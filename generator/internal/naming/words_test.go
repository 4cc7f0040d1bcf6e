package naming

import "testing"

func TestGoName(t *testing.T) {
	cases := map[string]string{
		"context_id":                "ContextID",
		"media-buy":                 "MediaBuy",
		"Create Media Buy Response": "CreateMediaBuyResponse",
		"CreateMediaBuySuccess":     "CreateMediaBuySuccess",
		"adcp_version":              "AdCPVersion",
		"AdCP Agents Authorization": "AdCPAgentsAuthorization",
		"setup_url":                 "SetupURL",
		"max_cpm":                   "MaxCPM",
		"HTTPServer":                "HTTPServer",
		"16:9":                      "16_9",
		"v2beta":                    "V2Beta",
		"geo_ids":                   "GeoIDs",
		"RATE_LIMITED":              "RateLimited",
		"input-required":            "InputRequired",
		"":                          "",
		"ünïcode name":              "ncodeName", // non-ASCII letters dropped; callers export it
		"__proto__":                 "Proto",
		"id5":                       "ID5",
		"uid2_token":                "UID2Token",
		"hdr10":                     "HDR10",
		"hdr_format":                "HDRFormat",
		"daast_version":             "DAASTVersion",
		"ai_tool":                   "AITool",
		"html5":                     "HTML5",
		"omid_partner":              "OMIDPartner",
		"linear_tv":                 "LinearTV",
		"US":                        "US", // codes written in capitals stay so
		"us":                        "Us",
		"OUT_OF_BAND":               "OutOfBand",
		"IO_REQUIRED":               "IoRequired",
	}
	for in, want := range cases {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSingular(t *testing.T) {
	cases := map[string]string{
		"Issues": "Issue", "Categories": "Category", "Status": "Status", "Addresses": "Address",
		"Analysis": "Analysis", "GeoIDs": "GeoID", "Boxes": "Box", "Data": "Data", "News": "News", "Gas": "Gas",
		"PropertyIDs": "PropertyID", "Creatives": "Creative", "Matches": "Match", "Policies": "Policy",
	}
	for in, want := range cases {
		if got := Singular(in); got != want {
			t.Errorf("Singular(%q) = %q, want %q", in, got, want)
		}
	}
}
