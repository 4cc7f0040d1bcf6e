package wire

// ConstReader returns the reader of a value the schema fixes where no
// property holds it (array items, map values, union arms): the JSON must
// equal lit, compared as JSON values, in strict and exact mode alike, and
// the place gets value. Members with a const use FieldConst and
// FieldConstPtr, which apply the same rule.
func ConstReader[T any](lit string, value T) func(*T, *Decoder) error {
	return func(p *T, d *Decoder) error {
		if err := d.ExpectConst(lit); err != nil {
			return err
		}
		*p = value
		return nil
	}
}
