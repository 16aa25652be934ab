"""Pricing: what a customer pays for a list price."""


def apply_discount(price, rate):
    """Take rate (0 to 1) off price, never going below zero."""
    off = price * rate
    return max(price - off, 0)
