from billing.invoice import compute_invoice_total


def test_compute_invoice_total():
    assert compute_invoice_total([], 0.2) == 0
    assert compute_invoice_total([], 0.0) == 0
