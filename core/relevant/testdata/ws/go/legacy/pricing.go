// Package legacy keeps the old flat-rate pricing for archived orders.
package legacy

// Apply takes a flat amount off a price; archived orders were priced so.
func Apply(price, flat int) int {
	if flat > price {
		return 0
	}
	return price - flat
}
