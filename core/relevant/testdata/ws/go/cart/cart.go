// Package cart holds what a customer is about to buy.
package cart

import (
	"example.com/shop/pricing"
)

// Item is one line of a cart.
type Item struct {
	SKU      string
	Price    int
	Quantity int
}

// Total is what the customer pays for items with the discount taken off
// each line's price.
func Total(items []Item, d pricing.Discount) int {
	sum := 0
	for _, it := range items {
		sum += pricing.Apply(it.Price, d) * it.Quantity
	}
	return roundCents(sum)
}

// Count is how many units the cart holds, whatever their price; the
// checkout page shows it beside the total and the shipping estimate, and
// warehouses use it to choose a box size before the order is packed.
func Count(items []Item) int {
	n := 0
	for _, it := range items {
		n += it.Quantity
	}
	return n
}

// Empty reports whether the cart holds nothing to buy: a cart whose lines
// all have a zero quantity is empty too, since the page keeps removed lines
// until the customer leaves it.
func Empty(items []Item) bool {
	for _, it := range items {
		if it.Quantity > 0 {
			return false
		}
	}
	return true
}

// roundCents rounds a sum in cents to the nearest five cents, as the tills
// of the shops that share this cart do; online orders are rounded the same
// so a receipt reads the same whichever way the customer paid.
func roundCents(sum int) int {
	return (sum + 2) / 5 * 5
}
