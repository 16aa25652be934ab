"""What a customer is about to buy."""

from shop.pricing import apply_discount


class Cart:
    """Lines of a cart, each a price and a quantity."""

    def __init__(self):
        self.lines = []

    def add(self, price, quantity=1):
        """Add a line; a zero quantity is kept until checkout drops it."""
        self.lines.append((price, quantity))

    def total(self, rate):
        """What the customer pays with the discount taken off each line."""
        return sum(apply_discount(price, rate) * qty for price, qty in self.lines)
