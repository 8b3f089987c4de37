"""Latin look-alike letters are refused in names (review 52n1 #4).

admın (dotless ı), ɑdmin (Latin alpha), ꜱystem (small capital s: reads as the reserved system) and ʟocal were
accepted: the look-alike map covered Cyrillic and Greek only. A name with Latin letters may use Basic Latin,
Latin-1 and Latin Extended-A (José, Müller, Łukasz); anything else beside them is refused.
"""

from __future__ import annotations

import pytest

from rag_core.accounts.names import check_name
from rag_core.accounts.store import AccountStore
from rag_core.errors import AccountError

PASSWORD = "Correct-horse-9"


@pytest.fixture
def store(tmp_path) -> AccountStore:
    store = AccountStore(tmp_path / "accounts.sqlite3")
    store.add("admin", "admin", PASSWORD)
    return store


@pytest.mark.parametrize("name", ["admın", "ɑdmin", "ꜱystem", "ʟocal", "ᴀdmin", "gօogle"])
def test_a_latin_look_alike_letter_is_refused(store: AccountStore, name: str) -> None:
    with pytest.raises(AccountError, match="用户名") as refused:
        store.add(name, "employee", PASSWORD)
    assert "请" in str(refused.value)  # says what to do
    assert [a.name for a in store.list()] == ["admin"]


def test_dotless_i_reads_as_i_beside_an_existing_name(store: AccountStore) -> None:
    """ı is in Latin Extended-A (Turkish names use it), so it is compared as i rather than refused outright."""
    with pytest.raises(AccountError, match="太相似"):
        store.add("admın", "employee", PASSWORD)
    assert check_name("Işık") == "Işık"


@pytest.mark.parametrize("name", ["José", "Müller", "Łukasz", "Strauß", "Jürgen", "王小明", "單立", "li小明",
                                  "Дмитрий", "Αλέξης", "zhang.san@hr", "wang_01"])
def test_real_names_are_still_accepted(store: AccountStore, name: str) -> None:
    assert store.add(name, "employee", PASSWORD).name == name


def test_names_with_accented_letters_beyond_extended_a_are_accepted():
    """Vietnamese (ễ), Romanian (ș) and pinyin (ǚ) letters carry a visible accent on a plain letter: real names."""
    from rag_core.accounts.names import check_name

    for name in ("Nguyễn", "Ștefan", "Lǚ.wei", "Trần_Thị"):
        assert check_name(name) == name
