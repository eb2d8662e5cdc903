"""hardware/<board>/cost.csv: a cost estimate per board from its BOM.

Unit prices are data (host_tools/hardware/prices.csv: manufacturer, part
number, EUR each, where the figure comes from and when). They are
ESTIMATES written from typical catalogue prices, not quotes: check them
with your supplier before you order. A BOM line without a price is an
error (the estimate would silently leave a part out).
"""
import csv
import io
import os

PRICES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prices.csv")
HEADER = ("quantity", "value", "manufacturer", "part number", "unit_eur", "line_eur", "price source", "price date")


def load_prices(path=PRICES):
    """{(manufacturer, part number): (unit cents, source, date)}"""
    with open(path, newline="", encoding="utf-8") as f:
        return {(r["manufacturer"], r["part number"]): (round(float(r["unit_eur"]) * 100), r["source"], r["date"])
                for r in csv.DictReader(f)}


def cost_rows(bom_text, prices):
    """([row], total cents, [problem]): one row per BOM line (whole cents,
    so the total is exactly the sum of the lines)."""
    rows, problems, total = [], [], 0
    for r in csv.DictReader(io.StringIO(bom_text)):
        key = (r["manufacturer"], r["part number"])
        if key not in prices:
            problems.append("no unit price for %s %s (%s): add it to host_tools/hardware/prices.csv" % (key[0], key[1], r["value"]))
            continue
        cents, source, date = prices[key]
        line = int(r["quantity"]) * cents
        total += line
        rows.append((r["quantity"], r["value"], key[0], key[1], "%.2f" % (cents / 100), "%.2f" % (line / 100), source, date))
    return rows, total, problems


def cost_csv(bom_text, prices=None):
    """(text, [problem]): the lines, then TOTAL (the sum of line_eur)."""
    rows, total, problems = cost_rows(bom_text, load_prices() if prices is None else prices)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(HEADER)
    for r in rows:
        w.writerow(r)
    w.writerow(("", "TOTAL (estimate, EUR, shipping not included)", "", "", "", "%.2f" % (total / 100), "sum of line_eur", ""))
    return out.getvalue(), problems
