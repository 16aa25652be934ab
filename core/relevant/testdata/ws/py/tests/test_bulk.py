from shop.pricing import apply_discount
from tests.test_pricing import discount_cases


def test_bulk_discount():
    for price, rate, want in discount_cases:
        assert apply_discount(2 * price, rate) == 2 * want
