"""Tools of the example bookshop environment (hand-written; the format every generated tools.py follows)."""
import sqlite3
from typing import Optional


def get_book(db: sqlite3.Connection, book_id: str) -> dict:
    """Get one book by its id.

    Args:
        book_id: The book's id, e.g. "b0001".

    Returns:
        The book's fields: id, title, author, price, stock.
    """
    row = db.execute("SELECT * FROM books WHERE id = ?", (book_id,)).fetchone()
    if row is None:
        raise ValueError(f"no book with id {book_id!r}")
    return row


def search_books(db: sqlite3.Connection, author: Optional[str] = None, max_price: Optional[float] = None,
                 limit: int = 10) -> list:
    """Find books, optionally by author and under a price, cheapest first.

    Args:
        author: Only books by this exact author name.
        max_price: Only books costing at most this much.
        limit: At most this many books (1-50).

    Returns:
        Matching books as a list of {id, title, author, price, stock}.
    """
    sql, params = "SELECT * FROM books WHERE 1=1", []
    if author is not None:
        sql += " AND author = ?"
        params.append(author)
    if max_price is not None:
        sql += " AND price <= ?"
        params.append(max_price)
    sql += " ORDER BY price, id LIMIT ?"
    params.append(max(1, min(limit, 50)))
    return db.execute(sql, params).fetchall()


def place_order(db: sqlite3.Connection, customer_id: str, book_id: str, quantity: int = 1) -> dict:
    """Order copies of a book for a customer: checks stock and balance, then charges and writes the order.

    Args:
        customer_id: The customer's id, e.g. "c001".
        book_id: The book's id.
        quantity: How many copies (at least 1).

    Returns:
        The new order: id, customer_id, book_id, quantity, total, status, created_at.
    """
    if quantity < 1:
        raise ValueError("quantity must be at least 1")
    book = get_book(db, book_id)
    customer = db.execute("SELECT * FROM customers WHERE id = ?", (customer_id,)).fetchone()
    if customer is None:
        raise ValueError(f"no customer with id {customer_id!r}")
    if book["stock"] < quantity:
        raise ValueError(f"only {book['stock']} copies of {book_id} in stock")
    total = round(book["price"] * quantity, 2)
    if customer["balance"] < total:
        raise ValueError(f"balance {customer['balance']} is less than the total {total}")
    order_id = db.new_id("o")
    db.execute("UPDATE books SET stock = stock - ? WHERE id = ?", (quantity, book_id))
    db.execute("UPDATE customers SET balance = round(balance - ?, 2) WHERE id = ?", (total, customer_id))
    db.execute("INSERT INTO orders VALUES (?, ?, ?, ?, ?, 'placed', ?)",
               (order_id, customer_id, book_id, quantity, total, db.now()))
    return db.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()


def cancel_order(db: sqlite3.Connection, order_id: str) -> dict:
    """Cancel a placed order: refunds the customer and restocks the book.

    Args:
        order_id: The order's id.

    Returns:
        The order with status "cancelled".
    """
    order = db.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
    if order is None:
        raise ValueError(f"no order with id {order_id!r}")
    if order["status"] != "placed":
        raise ValueError(f"order {order_id} is {order['status']}; only placed orders can be cancelled")
    db.execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", (order_id,))
    db.execute("UPDATE books SET stock = stock + ? WHERE id = ?", (order["quantity"], order["book_id"]))
    db.execute("UPDATE customers SET balance = round(balance + ?, 2) WHERE id = ?",
               (order["total"], order["customer_id"]))
    return db.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
