"""A small shop: carts, pricing and checkout."""
