from shop.pricing import apply_discount

discount_cases = [(100, 0.1, 90), (100, 0, 100), (100, 1, 0)]


def test_apply_discount():
    for price, rate, want in discount_cases:
        assert apply_discount(price, rate) == want


def test_apply_discount_never_negative():
    assert apply_discount(10, 2) == 0
