"""Home addresses for personal-data masking: the words an address follows, its numbered parts, what stays.

Split from pii.py (kept under its size limit), which runs `ADDRESS_RE` with `address` as its last rule.

A personal address: after a word saying someone lives or is reached there (住在, 我住, 家住, 家庭住址, 我搬到了 …),
or a label ending in 地址/住址/所在地 that names a person's place (户籍所在地, 身份证地址, 紧急联系人地址, 家里地址是):
places up to a road, lane or estate (or a short name before two numbered parts: 公司宿舍3栋402), numbered parts
(138号, 88号院3号楼2单元501, 12-3-501, 88 号, 3期/北一区/3组 before another part: 二七区建设路 is a district; a room in
Chinese digits after 单元/栋/楼), then maybe a name and more parts (东部软件园2号楼). The province, city, district or
county before the road stays (杭州市西湖区[住址]: rules differ by city). A label naming no person (a bare 地址：, 公司地址,
用人单位所在地) or a mailing verb (寄到) takes only a home's numbered pair (3单元501室, 2幢301, 12-3-501): a policy's
地址：文三路90号 or 公司地址：…建国路88号5楼 stays. No address: a city alone (住在杭州), a group (员工住在…), a 住 opening a
noun (住宿). Lazy, unambiguous parts: no blow-up on 市市市….
"""

from __future__ import annotations

import re

Span = tuple[int, int]
_CJK = "\u4e00-\u9fff"
_NUM_PART = (r"(?:(?:\d+|[一二三四五六七八九十百零〇两]+)(?:-\d+)* ?(?:号院|号楼|号(?![线码])|栋|幢|座|单元|室|楼|层|弄|户)"
             r"|(?:\d+|[一二三四五六七八九十]+)[期区组](?= ?(?:\d|[一二三四五六七八九十百零〇两]|[A-Za-z] ?[座栋幢]))"
             r"|[A-Za-z] ?(?:座|栋|幢)|(?!(?:19|20)\d\d-\d\d?-\d\d?(?!\d))\d+(?:-\d+){1,3}(?![\d-]))")
_NUMBERED = (rf"{_NUM_PART}(?: ?{_NUM_PART})*(?: ?-?\d{{1,5}}(?![\d.年月日号元天个次万%％])"
             r"|(?<=[元栋楼])[一二三四五六七八九十零〇两]{2,5}(?![一二三四五六七八九十百千万零〇两年月日号个次天人元岁]))?")
_STREET = r"大道|大街|路|街|道|[东西南北中]段|[一二三四五六七八九十]+段|巷|胡同|弄|村|小区|花园|公寓|社区|新村|家园|苑|大厦|院"
_ENDS = rf"省|自治区|市|区|县|旗|镇|乡|街道|{_STREET}"
ADDRESS_RE = re.compile(
    r"(?:(?:居|现|定居)?住(?:在|于)|(?P<bare>(?:居|现|定居|入|暂)?住)(?![宿房院户址所建宅在于])|家住|家在|现居(?:在|于)?"
    r"|定居(?:在|于)|住址|住所|(?P<label>地址|所在地)|(?:现)?居住地|我(?:家|们家)?(?:已经|已|刚|刚刚|最近)?[搬迁](?:到|至|去|进)了?"
    r"|(?P<sent>[寄邮送](?:到|至|往)))(?:在|于|是|为)?[ ]?[:：]?[ ]?(?P<address>"
    rf"(?P<place>[{_CJK}]{{0,30}}?(?:{_ENDS})[{_CJK}]{{0,12}}?|[{_CJK}]{{1,12}}?)? ?(?P<parts>{_NUMBERED})(?: ?(?:(?!的)[{_CJK}A-Za-z]){{1,12}}? ?{_NUMBERED}){{0,3}})")
# The province, city, district or county names a place starts with (not 小区, 园区, 超市 …), kept before the mask.
_ADMIN_PREFIX_RE = re.compile(
    rf"(?:(?:(?![路街巷道弄村苑院])[{_CJK}]){{1,7}}?(?:省|自治区|(?<![超夜集菜城门])市|县|旗|(?<![小社园校厂街片景宅活舍])区))*")
_GROUP_BEFORE = re.compile(r"(?:员工|职工|人员)$")
_GROUP_AFTER = re.compile(rf"(?:附近|周边|一带)?的[{_CJK}]{{0,4}}?(?:员工|职工|人员|同事|住户)")
# Who a 地址/所在地 label names (the Chinese words just before it): a person or their home (户籍所在地, 身份证地址,
# 紧急联系人地址, 家里地址, 我的地址, 收件地址), not an organisation or a place of work (公司地址, 用人单位所在地).
_QUALIFIER = re.compile(rf"[{_CJK}]{{1,8}}$")
_PERSONAL = re.compile(r"家|户籍|户口|身份证|证件|居住|常住|现|本人|个人|我|联系|紧急|配偶|父母|亲属|收件|收货|邮寄|寄送|通讯|通信|详细")
_ORGANISATION = re.compile(r"公司|单位|企业|机构|办公|工作|注册|经营|门店|总部|部门|项目|财产|法院|委员会|政府")
# A home's numbered pair, what a label naming no person needs: a unit or a building then a number (3单元501室, 2幢301,
# 5栋1201), or building-unit-room written with dashes (12-3-501).
_HOME_PAIR = re.compile(r"(?:单元|幢|栋) ?-?(?:\d|[一二三四五六七八九十零〇两])|\d+-\d+-\d+")


def _names_a_person(match: re.Match[str]) -> bool:
    """Does the 地址/所在地 label name a person's place (its qualifier), not a bare label or an organisation's?"""
    qualifier = _QUALIFIER.search(match.string, 0, match.start("label"))
    words = qualifier.group() if qualifier else ""
    return bool(_PERSONAL.search(words)) and not _ORGANISATION.search(words)


def address(match: re.Match[str]) -> Span | None:
    """A road or estate (maybe its 东区) before the numbers, or two numbered parts (3号楼2单元501), not a lone 2号; a
    bare 住 only before a named place or two parts; a label naming no person, or 寄到, only before a home's numbered
    pair; never words about a group. Masked from the road or estate on."""
    text, place = match.string, match.group("place") or ""
    parts = len(re.findall(r"\d+|[A-Za-z]|[一二三四五六七八九十百零〇两]+", match.group("parts")))
    if not (re.search(rf"(?:{_STREET})(?:[东西南北中]区)?$", place) or parts >= 2) or (
            match.group("bare") and parts < 2 and not re.search(rf"(?:{_ENDS})$", place)):
        return None
    strict = match.group("sent") or (match.group("label") and not _names_a_person(match))
    if strict and not _HOME_PAIR.search(match.group("address")):
        return None
    if _GROUP_BEFORE.search(text, 0, match.start()) or _GROUP_AFTER.match(text, match.end()):
        return None
    prefix = _ADMIN_PREFIX_RE.match(place)
    return match.start("address") + (prefix.end() if prefix else 0), match.end("address")
