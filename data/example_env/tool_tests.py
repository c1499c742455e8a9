"""Unit tests of the example bookshop tools: each test gets a fresh episode (db) and the tools bound to it."""


def test_get_book_found(db, tools):
    assert tools.get_book(book_id="b0001")["id"] == "b0001"


def test_get_book_missing(db, tools):
    assert tools.get_book(book_id="nope")["error"] == "tool_error"


def test_search_books_sorted(db, tools):
    prices = [b["price"] for b in tools.search_books(limit=5)]
    assert prices == sorted(prices) and len(prices) == 5


def test_place_order_charges(db, tools):
    before = db.execute("SELECT balance FROM customers WHERE id = 'c001'").fetchone()["balance"]
    order = tools.place_order(customer_id="c001", book_id="b0001", quantity=1)
    after = db.execute("SELECT balance FROM customers WHERE id = 'c001'").fetchone()["balance"]
    assert order["status"] == "placed" and round(before - after, 2) == order["total"]


def test_place_order_no_stock(db, tools):
    assert tools.place_order(customer_id="c001", book_id="b0001", quantity=10**6)["error"] == "tool_error"


def test_cancel_order_twice(db, tools):
    order = tools.place_order(customer_id="c001", book_id="b0002")
    assert tools.cancel_order(order_id=order["id"])["status"] == "cancelled"
    assert tools.cancel_order(order_id=order["id"])["error"] == "tool_error"
