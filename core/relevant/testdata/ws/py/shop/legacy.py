"""Flat-rate pricing kept for archived orders."""


def apply_discount(price, flat=5):
    """Take a flat amount off price."""
    return max(price - flat, 0)
