"""The element budget of an HTML upload, counted by streaming before BeautifulSoup builds a tree.

BeautifulSoup makes a Python object per tag (about 15 µs and 570 bytes each): 4.9 million <br> in a 19.6 MB file
took 73 s and 2.8 GB, with no limit but the file size. The count runs libxml2's HTML parser (the one BeautifulSoup's
"lxml" builder drives) with a target that only counts element starts, so it builds nothing.

MAX_HTML_ELEMENTS: the largest real policy in tests/data (路达员工手册, 845 lines) as HTML, a <p> a line with inline
markup, has about 2,600 elements; a policy page saved from a government site with its navigation under 20,000.
At the bound BeautifulSoup takes about 3 s and 120 MB.
"""

from __future__ import annotations

MAX_HTML_ELEMENTS = 200_000


class _Over(Exception):
    pass


class _Count:
    """An lxml parser target counting element starts; raises `_Over` past `limit`."""

    def __init__(self, limit: int) -> None:
        self.limit, self.count = limit, 0

    def start(self, tag: str, attrib: object) -> None:
        self.count += 1
        if self.count > self.limit:
            raise _Over

    def close(self) -> int:
        return self.count


def too_many_elements(text: str, limit: int | None = None) -> bool:
    """Does `text` hold more than `limit` (MAX_HTML_ELEMENTS) elements? Stops reading at the first one over."""
    from lxml import etree

    parser = etree.HTMLParser(target=_Count(MAX_HTML_ELEMENTS if limit is None else limit), no_network=True)
    try:
        for at in range(0, len(text), 1 << 16):
            parser.feed(text[at : at + (1 << 16)])
        parser.close()
    except _Over:
        return True
    except etree.LxmlError:  # BeautifulSoup's parser recovers or refuses on its own
        return False
    return False


def refusal() -> str:
    return f"网页中的 HTML 元素超过 {MAX_HTML_ELEMENTS:,} 个的上限（疑似异常文件），请删除多余内容或拆分后再上传"
