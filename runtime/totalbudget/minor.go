package totalbudget

import "math"

// MinorUnits is the number of decimal digits of a currency's minor unit
// (ISO 4217): 2 unless listed.
func MinorUnits(currency string) int {
	if d, ok := minorUnits[currency]; ok {
		return d
	}
	return 2
}

// minorUnits lists the ISO 4217 currencies whose minor unit is not a
// hundredth.
var minorUnits = map[string]int{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
	"RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	"CLF": 4, "UYW": 4,
}

// round rounds v to the currency's minor unit.
func round(v float64, currency string) float64 {
	p := math.Pow10(MinorUnits(currency))
	return math.Round(v*p) / p
}
