"""The forms of an HTML page (action and input fields), as a browser without JavaScript would submit them."""
from html.parser import HTMLParser


class Forms(HTMLParser):
    """Collects every form on a page: its action and input fields."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action"), "fields": [], "buttons": []})
        elif tag == "input" and self.forms and a.get("name"):
            self.forms[-1]["fields"].append((a["name"], a.get("value") or ""))
        elif tag == "button" and self.forms and a.get("name"):
            self.forms[-1]["buttons"].append((a["name"], a.get("value") or ""))


def forms(html):
    p = Forms()
    p.feed(html)
    return p.forms
