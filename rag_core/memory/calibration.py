"""Labelled question/memory sets that fixed the relevance formula and the threshold.

Kept in the package (not only in a test) so the numbers in scoring.py can be
re-measured for any embedder: ``python bench/bench_memory.py --calibrate``.
DEV was used to choose the formula; HELD_OUT was written before the threshold was
picked and only checked afterwards. Relevant = the memory should change how an HR
answer is phrased for this user; questions with no relevant memory must get none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .centres import centre_rows, compute_centres
from .scoring import DEFAULT_IMPORTANCE, RelevanceCalibration, relevance
from .text import keyword_overlap, keyword_terms

Memories = list[tuple[str, str]]  # (content, kind)
Questions = dict[str, list[int]]  # question -> indices of relevant memories

DEV_MEMORIES: Memories = [
    ("用户张三是 Python 开发者,专注机器学习", "profile"), ("用户说今天天气不错", "interaction"),
    ("用户对花生过敏,推荐食物时必须避开", "profile"), ("用户去年提过想学 Python 爬虫", "episode"),
    ("用户王五常驻杭州,经常出差去北京", "profile"), ("用户在研发部工作", "profile"), ("用户的直属主管是李四", "profile"),
    ("用户希望回答使用表格形式", "preference"), ("用户下个月要休婚假", "episode"),
    ("用户家里有两个孩子，正在上小学", "profile"), ("用户是试用期员工，入职不满三个月", "profile"),
    ("用户喜欢简短的回答", "preference"), ("用户开车上班，需要停车位", "profile"),
    ("用户怀孕了，预产期在十月", "profile"), ("用户的工位在三楼", "profile"),
]
DEV_QUESTIONS: Questions = {
    "张三擅长什么技术?": [0, 3], "推荐个零食": [2], "报销单交给谁审批?": [6], "晚饭吃啥": [2],
    "去北京出差住宿能报多少?": [4], "杭州到北京的高铁票能报吗": [4], "我能休几天婚假?": [8], "婚假需要提前多久申请": [8],
    "子女教育补贴怎么申请": [9], "试用期能请年假吗": [10], "转正需要什么流程": [10], "产假有多少天": [13],
    "孕检假怎么请": [13], "公司有停车补贴吗": [12], "请假要谁批准": [6], "我们部门的加班政策": [5],
    "研发部的绩效考核方式": [5], "食堂几点开饭": [2],
    "公司的报销发票抬头是什么": [], "办公室几点关门": [], "团建活动经费标准": [], "公积金缴存比例是多少": [],
    "如何申请新的电脑": [], "离职需要提前几天通知": [], "病假工资怎么算?": [], "丧假有几天": [],
    "周末加班有调休吗": [], "年终奖什么时候发": [], "体检报告在哪里查": [],
}
HELD_OUT_MEMORIES: Memories = [
    ("用户李雷在销售部工作", "profile"), ("用户常驻深圳", "profile"), ("用户的直属主管是韩梅梅", "profile"),
    ("用户请用表格列出数字", "preference"), ("用户是外籍员工，需要办理工作签证", "profile"),
    ("用户患有糖尿病，需要定期复查", "profile"), ("用户父亲上个月住院了", "episode"), ("用户正在读在职研究生", "profile"),
    ("用户每周三在家远程办公", "profile"), ("用户不吃猪肉", "preference"), ("用户问过：年假有几天？", "interaction"),
    ("用户问过：打车费能报吗？", "interaction"),
]
HELD_OUT_QUESTIONS: Questions = {
    "我们销售部的提成怎么算": [0], "深圳出差住宿标准": [1], "去深圳的差旅补贴": [1], "我的请假单谁来审批": [2],
    "签证费用公司报销吗": [4], "外国员工的社保怎么交": [4], "看病的医疗费能报销吗": [5], "员工体检包括哪些项目": [5],
    "家属住院可以请假吗": [6], "照顾生病的家人有假期吗": [6], "读研的学费公司能补贴吗": [7], "考试可以请假吗": [7],
    "远程办公需要申请吗": [8], "在家办公怎么打卡": [8], "公司年会的菜单": [9], "年假有几天？": [10],
    "出租车费用怎么报销": [11],
    "公司的logo在哪下载": [], "办公用品怎么领": [], "离职证明怎么开": [], "五险一金基数": [], "会议室怎么预订": [],
    "公司班车路线": [], "内推奖金多少": [], "工牌丢了怎么办": [], "电脑坏了找谁修": [],
}
SETS = {"dev": (DEV_MEMORIES, DEV_QUESTIONS), "held_out": (HELD_OUT_MEMORIES, HELD_OUT_QUESTIONS)}


@dataclass
class Features:
    """Per (question, memory) pair: raw cosine, centred cosine, keyword overlap, label."""

    raw: np.ndarray
    centred: np.ndarray
    keyword: np.ndarray
    labels: np.ndarray  # bool
    importance: np.ndarray  # per memory, default by kind


def features(embedder, memories: Memories, questions: Questions, centres=None) -> Features:
    qc, mc = centres if centres is not None else compute_centres(embedder)
    P = np.asarray(embedder.embed_passages([m for m, _ in memories]), dtype=np.float32)
    Q = np.vstack([embedder.embed_query(q) for q in questions]).astype(np.float32)
    kw = np.array([[keyword_overlap(keyword_terms(q), m) for m, _ in memories] for q in questions])
    labels = np.array([[j in rel for j in range(len(memories))] for rel in questions.values()])
    return Features(
        raw=Q @ P.T,
        centred=centre_rows(Q, qc) @ centre_rows(P, mc).T,
        keyword=kw,
        labels=labels,
        importance=np.array([DEFAULT_IMPORTANCE[k] for _, k in memories]),
    )


def auc(values: np.ndarray, labels: np.ndarray) -> float:
    """Probability a relevant pair outscores an unrelated one (ties count half)."""
    pos, neg = values[labels], values[~labels]
    if not len(pos) or not len(neg):
        return float("nan")
    diff = pos[:, None] - neg[None, :]
    return float((diff > 0).mean() + 0.5 * (diff == 0).mean())


def top1(values: np.ndarray, labels: np.ndarray) -> tuple[int, int]:
    rows = [i for i in range(len(labels)) if labels[i].any()]
    return sum(bool(labels[i, values[i].argmax()]) for i in rows), len(rows)


def selection(f: Features, cal: RelevanceCalibration, threshold: float, top_k: int = 3) -> dict[str, float]:
    """Precision/recall of what recall would put in the prompt, and unrelated questions left empty."""
    scores = np.asarray(relevance(f.centred, f.keyword, cal)) * f.importance[None, :]
    tp = fp = fn = empty = unrelated = first = related = 0
    for i in range(len(scores)):
        chosen = [j for j in np.argsort(-scores[i])[:top_k] if scores[i, j] >= threshold and scores[i, j] > 0]
        rel = set(np.nonzero(f.labels[i])[0].tolist())
        tp += len(rel & set(chosen))
        fp += len(set(chosen) - rel)
        fn += len(rel - set(chosen))
        if rel:
            related += 1
            first += bool(chosen) and chosen[0] in rel
        else:
            unrelated += 1
            empty += not chosen
    return {
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "empty": empty, "unrelated": unrelated, "top1": first, "related": related,
    }
