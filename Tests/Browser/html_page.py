"""The one way the browser suite's little HTTP servers answer with a page."""


def send_html(handler, body):
    """Answers a `BaseHTTPRequestHandler`'s request with 200 and the HTML page `body` (bytes)."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)
