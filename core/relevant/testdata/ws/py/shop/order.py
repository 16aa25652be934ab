"""An order from payment to delivery."""


class Order:
    """One customer's order."""

    def __init__(self):
        self.paid = False
        self.shipped = False

    def done(self):
        """Whether the order was paid and shipped: nothing is left to do."""
        return self.paid and self.shipped
