"""Invoices: totals and rendering."""


def compute_invoice_total(lines, tax_rate):
    """Sum the lines and add tax."""
    subtotal = sum(line.amount for line in lines)
    return subtotal * (1 + tax_rate)


class InvoiceRenderer:
    """Renders an invoice as text."""

    def render(self, invoice):
        return "\n".join(str(line) for line in invoice.lines)
