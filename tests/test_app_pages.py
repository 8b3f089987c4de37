"""Every page of the Streamlit app, driven by AppTest against the real engine in a temp data dir.

One data dir (a copy of the session's indexed sample store, so one cached facade)
serves the whole module. AppTest cannot drive st.file_uploader, so
the upload test calls the page's handler with the same cached facade and then checks
that the documents page lists the result.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_support import facade, point_the_app_at
from conftest import copy_store
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
FIRST_RUN_TIMEOUT = 600  # model load + indexing the samples on a slow CI machine
RUN_TIMEOUT = 180

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def data_dir(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A private copy of the session's indexed sample store; offline answerer forced.

    (The browser test starts from an empty store, so the first-start indexing runs there.)
    """
    path = copy_store(sample_store, tmp_path_factory.mktemp("app_store") / "store")
    with pytest.MonkeyPatch.context() as patch:
        point_the_app_at(path, patch)
        yield path


@pytest.fixture(autouse=True)
def app_environment(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Again for each test: conftest's `env_setup` removes every RAG_* variable before a test runs."""
    point_the_app_at(data_dir, monkeypatch)


@pytest.fixture(scope="module")
def warm(data_dir: Path) -> Path:
    """Run the app once so the facade is built and the samples indexed before timed tests."""
    at = AppTest.from_file(APP, default_timeout=FIRST_RUN_TIMEOUT)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return data_dir


def new_app() -> AppTest:
    """A new browser session, run twice.

    With a `pages/` folder Streamlit runs the very first script run of a session
    through app.py and later page runs directly (see ui/layout.py); the second run
    puts the session in the state every later interaction sees.
    """
    at = AppTest.from_file(APP, default_timeout=RUN_TIMEOUT)
    at.run()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def set_user(at: AppTest, name: str) -> None:
    """Desktop mode: the local administrator picks whose memories the memories page shows."""
    at.switch_page("pages/memories.py").run()
    next(t for t in at.text_input if t.label == "查看谁的记忆").set_value(name).run()
    assert at.session_state["memory_owner"] == name


def page_text(at: AppTest) -> str:
    """Everything a person could read on the page, as one string."""
    parts: list[str] = []
    for kind in ("title", "markdown", "caption", "text", "code", "info", "warning", "error", "success"):
        parts.extend(str(el.value) for el in getattr(at, kind))
    parts.extend(el.label for el in at.expander)
    for frame in at.dataframe:
        parts.append(frame.value.to_string())
    return "\n".join(parts)


def button(at: AppTest, label: str):
    matches = [b for b in at.button if b.label == label]
    assert matches, f"no button {label!r}; have {[b.label for b in at.button]}"
    return matches[0]


def ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_every_page_renders(warm: Path) -> None:
    at = new_app()
    assert "制度问答" in page_text(at)
    titles = {
        "pages/documents.py": "文档管理",
        "pages/memories.py": "记忆管理",
        "pages/retrieval_test.py": "检索测试",
        "pages/settings.py": "设置",
    }
    for page, title in titles.items():
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert at.title[0].value == title
        # the sidebar on every page: who is asking (desktop mode: the local administrator) and which answerer
        assert any("本机管理员" in el.value for el in at.sidebar.markdown)
        assert any("离线抽取式回答" in el.value for el in at.sidebar.info)


def test_desktop_mode_asks_no_login_and_lists_every_page(warm: Path) -> None:
    """No accounts: the person at the machine is the administrator; no name box, no role dropdown."""
    at = new_app()
    assert at.chat_input and not at.sidebar.text_input and not at.sidebar.selectbox
    from ui.layout import PAGES

    assert [link.label for link in at.sidebar.get("page_link")] == [title for _path, title, _icon, _perm in PAGES]
    set_user(at, "王五")
    at.switch_page("pages/chat.py").run()
    assert "王五" in page_text(at.switch_page("pages/memories.py").run())


def test_chat_shows_hit_count_chunk_and_prompt(warm: Path) -> None:
    at = ask(new_app(), "打车费能报吗？")
    text = page_text(at)
    trace = at.session_state["chat_history"][-1]["trace"]
    assert trace.hit_count >= 1
    assert f"命中 {trace.hit_count} 块" in text
    # the chunk cards: source, text and every score
    assert any("网约车" in el.value or "出租车" in el.value for el in at.text)
    assert "03_travel_expense" in text.replace("\\", "")
    assert "依据充分" in text or "依据较弱" in text
    # HR first: no scores, no prompt until 技术细节 is opened
    assert "BM25" not in text and "余弦" not in text and not at.code
    at.session_state["tech_t1"] = True
    at.run()
    text = page_text(at)
    assert "BM25" in text and "余弦" in text and "把握" in text
    # the full prompt exactly as sent, with its token count
    assert at.code[0].value == trace.prompt
    assert f"完整提示词（{trace.prompt_tokens} / {trace.token_budget} token）" in text
    assert "各阶段耗时" in text and "使用的记忆" in text
    # each [资料N] links to its card's anchor
    answer_md = next(el.value for el in at.markdown if "资料1" in el.value and "(#t1-chunk-" in el.value)
    anchor = answer_md.split("(#", 1)[1].split(")", 1)[0]
    assert any(f'id="{anchor}"' in el.value for el in at.markdown)


def test_absent_question_says_not_in_policy_with_zero_hits(warm: Path) -> None:
    at = ask(new_app(), "公司年会预算是多少？")
    text = page_text(at)
    assert "制度里没有写这一条" in text
    assert "命中 0 块" in text
    assert "没有资料通过阈值" in text
    trace = at.session_state["chat_history"][-1]["trace"]
    assert trace.hit_count == 0
    if trace.search.near_misses:  # the nearest chunks are shown with their scores, so a user sees why
        assert f"相近但未采用的条款（{len(trace.search.near_misses)} 条）" in text
        assert "未采用" in text


def test_second_question_loads_nothing_again(warm: Path) -> None:
    from rag_core.search.embedding import MODEL_LOADS

    at = ask(new_app(), "年假有几天？")
    after_first = dict(MODEL_LOADS)
    assert sum(after_first.values()) >= 1
    ask(at, "加班可以调休吗？")
    ask(new_app(), "试用期多长？")  # a new browser session shares the cached facade too
    assert dict(MODEL_LOADS) == after_first


def test_feedback_is_recorded_with_the_trace(warm: Path) -> None:
    at = ask(new_app(), "出差住宿标准是多少？")
    at.feedback[0].set_value(1).run()
    assert not at.exception
    assert at.session_state["chat_history"][-1]["rating"] == 1
    assert any("已记录评价" in t.value for t in at.toast)


def test_upload_is_listed_and_a_bad_file_disturbs_nothing(warm: Path) -> None:
    from ui.uploads import ingest_uploads

    a = facade()
    before = {d.doc_id for d in a.list_documents()}
    good = "# 员工停车管理规定\n\n第一条 公司地下停车场车位优先分配给孕期员工。\n\n第二条 停车费每月300元，由员工自理。\n".encode()
    steps: list[tuple[str, float]] = []
    reports = ingest_uploads(
        a,
        [("停车管理规定.md", good), ("损坏的文件.docx", b"PK\x03\x04 not really a docx")],
        audience=["all"],
        progress=lambda label, fraction: steps.append((label, fraction)),
    )
    assert [r.status for r in reports] == ["indexed", "refused"]
    assert reports[1].error
    assert steps and steps[-1][1] == pytest.approx(1.0)
    assert all(0.0 <= f <= 1.0 for _, f in steps)
    after = {d.doc_id for d in a.list_documents()}
    assert before < after and len(after - before) == 1

    at = new_app()
    at.switch_page("pages/documents.py").run()
    at.session_state["doc_ingest_reports"] = reports  # what the upload form stores after a run
    at.run()
    text = page_text(at)
    assert "停车管理规定.md" in text and "已索引" in text
    assert "损坏的文件.docx" in text and "已拒绝" in text
    listed = at.dataframe[1].value  # [0] is the report table, [1] the document list
    assert reports[0].doc_id in set(listed["文档ID"])


def test_delete_document_asks_first(warm: Path) -> None:
    from ui.uploads import ingest_uploads

    a = facade()
    (report,) = ingest_uploads(a, [("临时通知.txt", "第一条 本通知仅用于测试删除。".encode())])
    at = new_app()
    at.switch_page("pages/documents.py").run()
    at.main.selectbox[0].set_value(report.doc_id).run()
    button(at, "删除此文档").click().run()
    assert report.doc_id in {d.doc_id for d in a.list_documents()}, "must not delete before confirmation"
    assert "确定删除" in page_text(at)
    button(at, "确认删除").click().run()
    assert not at.exception
    assert report.doc_id not in {d.doc_id for d in a.list_documents()}
    assert "已删除《" in page_text(at)  # the success message survives the rerun
    assert report.doc_id not in set(at.dataframe[0].value["文档ID"])


def add_memory(at: AppTest, content: str) -> None:
    at.text_area[0].set_value(content)
    button(at, "保存记忆").click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_delete_a_memory_and_it_is_gone(warm: Path) -> None:
    at = new_app()
    set_user(at, "测试用户甲")
    at.switch_page("pages/memories.py").run()
    add_memory(at, "我在上海办公室，负责校园招聘。")
    add_memory(at, "我对花生过敏。")
    assert "我在上海办公室" in page_text(at) and "我对花生过敏" in page_text(at)
    target = next(m.id for m in facade().list_memories("测试用户甲") if "花生" in m.content)
    at.multiselect(key="memory_delete_choice_0").set_value([target]).run()
    button(at, "删除所选").click().run()
    assert any("花生" in m.content for m in facade().list_memories("测试用户甲")), "must not delete before confirmation"
    assert "确定删除这 1 条记忆" in page_text(at)
    button(at, "确认删除").click().run()
    assert not at.exception
    text = page_text(at)
    assert "已删除 1 条记忆" in text  # said after the rerun, not lost with it
    assert at.multiselect(key="memory_delete_choice_1").value == []  # no chip of the deleted memory
    assert "我对花生过敏" not in text
    assert "我在上海办公室" in text
    assert all("花生" not in m.content for m in facade().list_memories("测试用户甲"))


def test_forget_down_to_n_previews_then_confirms(warm: Path) -> None:
    at = new_app()
    set_user(at, "测试用户乙")
    at.switch_page("pages/memories.py").run()
    for content in ("我在北京研发中心工作。", "我喜欢表格形式的回答。", "我下个月要休婚假。"):
        add_memory(at, content)
    assert len(facade().list_memories("测试用户乙")) == 3
    next(n for n in at.number_input if n.label == "保留条数 N").set_value(1).run()
    button(at, "预览将被遗忘的记忆").click().run()
    assert "将被遗忘" in page_text(at)
    assert len(facade().list_memories("测试用户乙")) == 3, "preview must not delete"
    button(at, "确认遗忘").click().run()
    assert not at.exception
    assert len(facade().list_memories("测试用户乙")) == 1
    assert "已遗忘 2 条记忆" in page_text(at)


def test_retrieval_test_shows_the_same_hits_as_chat(warm: Path) -> None:
    question = "出差住宿标准是多少？"
    at = ask(new_app(), question)
    chat_trace = at.session_state["chat_history"][-1]["trace"]
    at.session_state["tech_t1"] = True  # the score table sits under 技术细节
    at.run()
    chat_table = next(df.value for df in at.dataframe if "BM25" in df.value.columns)
    assert chat_trace.hit_count >= 1

    at.switch_page("pages/retrieval_test.py").run()
    at.text_input(key="rt_question").set_value(question)
    button(at, "检索").click().run()
    assert not at.exception
    result = at.session_state["retrieval_chat_search"][1].result
    assert [h.chunk.chunk_id for h in result.hits] == [h.chunk.chunk_id for h in chat_trace.search.hits]
    at.session_state["tech_rt"] = True
    at.run()
    shown = next(df.value for df in at.dataframe if "BM25" in df.value.columns)
    columns = ["来源", "章节", "BM25", "余弦", "是依据的把握", "判断"]
    assert shown[columns].equals(chat_table[columns])
    assert f"命中 {chat_trace.hit_count} 块" in page_text(at)
    assert "把握低于" in page_text(at)  # the decision is explained


def test_retrieval_test_searches_with_the_testers_memories_unless_unticked(warm: Path) -> None:
    """Chat's search recalls the asker's memories; so does the test page, unless the box is unticked; a turn
    that only tells something is not searched, as in chat (found by review)."""
    at = ask(new_app(), "我是销售部的，经常去上海出差")
    at.switch_page("pages/retrieval_test.py").run()
    at.text_input(key="rt_question").set_value("我出差住宿标准是多少？")
    button(at, "检索").click().run()
    assert not at.exception
    assert at.session_state["retrieval_chat_search"][1].memories
    assert "用到的个人记忆" in page_text(at)
    at.checkbox(key="rt_personal").uncheck()
    button(at, "检索").click().run()
    assert not at.session_state["retrieval_chat_search"][1].memories
    at.text_input(key="rt_question").set_value("我在郑州上班")
    button(at, "检索").click().run()
    assert "只是在说自己的情况" in page_text(at)


def test_retrieval_test_runs_the_eval_set(warm: Path) -> None:
    at = new_app()
    at.switch_page("pages/retrieval_test.py").run()
    button(at, "运行评测").click().run(timeout=600)
    assert not at.exception, [e.value for e in at.exception]
    metrics = next(df.value for df in at.dataframe if "一条也没找到的比例" in df.value.columns)
    assert {"原文提问", "换种说法", "相近但不适用", "制度未涉及"} <= set(metrics["类别"])
    assert at.get("vega_lite_chart"), "metrics chart missing"


def test_settings_apply_without_restart_and_rechunk_asks(warm: Path) -> None:
    a = facade()
    original = a.settings
    at = new_app()
    at.switch_page("pages/settings.py").run()
    try:
        next(n for n in at.number_input if n.label == "每次检索返回条数").set_value(3)
        button(at, "应用").click().run()
        assert a.settings.top_k == 3
        assert "设置已生效" in page_text(at)

        next(n for n in at.number_input if n.label == "每段字数").set_value(original.chunk_size + 40)
        button(at, "应用").click().run()
        assert a.settings.chunk_size == original.chunk_size, "re-chunking must wait for confirmation"
        assert "重新索引" in page_text(at)
        button(at, "取消").click().run()
        assert a.settings.chunk_size == original.chunk_size
    finally:
        a.update_settings(top_k=original.top_k, chunk_size=original.chunk_size)


def test_answer_streams_from_a_configured_llm(warm: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With an OpenAI-compatible endpoint (a stub on loopback) the answer streams into the page."""
    from openai_stub_server import OpenAIStubServer

    reply = "可以报销：出差期间市内乘坐出租车或网约车的费用凭发票和行程单实报实销 [资料1]。"
    with OpenAIStubServer(reply=reply, chunk_chars=3, model_ids=["stub-model"]) as stub:
        monkeypatch.setenv("RAG_DATA_DIR", str(tmp_path / "llm_store"))  # its own cached facade, built with the LLM
        monkeypatch.setenv("LLM_API_KEY", "sk-test-streaming-key")
        monkeypatch.setenv("LLM_BASE_URL", stub.base_url)
        monkeypatch.setenv("LLM_MODEL_ID", "stub-model")
        at = AppTest.from_file(APP, default_timeout=FIRST_RUN_TIMEOUT)
        at.run()
        at.run()
        assert any("stub\\-model" in el.value for el in at.sidebar.success)  # the model id shown inert (escaped)
        ask(at, "打车费能报吗？")
        trace = at.session_state["chat_history"][-1]["trace"]
        assert trace.answer == reply
        assert trace.answerer == "stub-model" or "stub-model" in trace.answerer
        streamed = [r for r in stub.requests if r.body and r.body.get("stream")]
        assert streamed and trace.prompt in streamed[0].body["messages"][-1]["content"]
        assert any("(#t1-chunk-" in el.value and "出租车" in el.value for el in at.markdown)
        at.switch_page("pages/settings.py").run()
        text = page_text(at)
        assert "sk-test-streaming-key" not in text  # the key is masked wherever it is shown
        assert "•" * 8 in text
