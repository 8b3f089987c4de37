"""The Chinese error of a standard answer's add or delete whose wordings' collection cannot be written.

Its own module beside `standard.py` (near its line limit): the store's retry (`StandardAnswers._write`) rebuilds
the collection once; an error that stays (a read-only data dir, a full disk) ends there with this line, never a
loop of rebuilds or Chroma's English words.
"""

from __future__ import annotations

from ..errors import StoreDamaged

UNWRITABLE = ("标准答复的检索索引写不进去（多半是数据目录只读或磁盘已满）：这次的添加或删除没有保存。"
              "请确认数据目录可写、磁盘有空间后重试；若仍不行，请重启应用")


class StandardIndexUnwritable(StoreDamaged):
    """An add or delete failed on the wordings' collection after its one rebuild: nothing was saved (the entry is
    written to the table only after its wordings, and deleted from it only after them). The collection is rebuilt
    again at the next use."""

    def __init__(self) -> None:
        super().__init__(UNWRITABLE)
