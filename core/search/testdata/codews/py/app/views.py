from billing.invoice import compute_invoice_total, InvoiceRenderer


def checkout(cart):
    total = compute_invoice_total(cart.lines, 0.2)
    again = compute_invoice_total(cart.lines, 0.0)
    return total, again, compute_invoice_total(cart.extra, 0.2)


def show(invoice):
    return InvoiceRenderer().render(invoice)
