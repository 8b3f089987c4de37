"""Home addresses for personal-data masking: the words an address follows, its numbered parts, what stays.

Split from pii.py (kept under its size limit), which runs `ADDRESS_RE` with `address` as its last rule.

A personal address: after a word saying someone lives or is reached there (住在, 我住, 家住, 家庭住址, 我搬到了 …),
or a label ending in 地址/住址/所在地 that names a person's place (户籍所在地, 身份证地址, 紧急联系人地址, 家里地址是):
places up to a road, lane or estate (or a short name before two numbered parts: 公司宿舍3栋402), numbered parts
(138号, 88号院3号楼2单元501, 12-3-501, 88 号, 3期/北一区/3组 before another part: 二七区建设路 is a district; a room in
Chinese digits after 单元/栋/楼), then maybe a name and more parts (东部软件园2号楼). The province, city, district or
county before the road stays (杭州市西湖区[住址]: rules differ by city). Whose place it is decides: a label naming an
organisation, its place or what is done there (公司地址, 用人单位所在地, 新员工报到地址, 培训地址) takes none; a bare label
(地址：, or a qualifier naming no organisation: 快递地址, 新地址, 张三地址) or a mailing verb (寄到, 送至) takes a home's
numbered pair (3单元501室, 2幢301, 12-3-501) whoever's sentence it is, any address after a word for a person in its
sentence (姓名：王五，地址：…) or 寄到我家 — never before an office's name (…301室财务部) or in an office building
(行政楼2栋301室), nor a label after a clause ending in an organisation's name (寄到公司人力资源部，地址：…): a policy's
地址：文三路90号 stays; a company's 地址：…2幢301室 is masked (a home masked by mistake would be the worse harm). No address: a city alone (住在杭州), a group (员工住在…), a 住 opening a noun (住宿).
Lazy, unambiguous parts: no blow-up on 市市市….
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
# The words an address follows: masking's trigger, and the streamed answer's cue to hold text back (`ADDRESS_CUE`).
_TRIGGER = (
    r"(?:(?:居|现|定居)?住(?:在|于)|(?P<bare>(?:居|现|定居|入|暂)?住)(?![宿房院户址所建宅在于证])|家住|家在|现居(?:在|于)?"
    r"|定居(?:在|于)|住址|住所|(?P<label>地址|所在地)|(?:现)?居住地|我(?:家|们家)?(?:已经|已|刚|刚刚|最近)?[搬迁](?:到|至|去|进)了?"
    r"|(?P<sent>[寄邮送](?:到|至|往))(?P<home>(?:我们?家[里中]?|家里|家中|老家)[ ]?[,，]?)?)")
ADDRESS_CUE = re.compile(_TRIGGER)
# How far a place runs without a place word: up to 30 characters before its road or estate, 12 after (the stream holds
# text after a cue this long past the last place or number word: `masked_stream`).
_BEFORE_END, _AFTER_END = 30, 12
PLACE_REACH = _BEFORE_END + _AFTER_END
# Between the trigger and the address: 在/是 …, a colon, a short （…） before it (住址（现居住地）：), a table's value word
# (项目：家庭住址，内容：…, 字段：住址，值：…), a form's 】 (【住址】…) or a cell's | (住址 | …).
LABEL_GAP = r"(?:[(（][^()（）\n]{1,8}[)）])?(?:[，,]?(?:内容|值|信息|填写内容)?[:：]|】|[ ]?[|｜])?"
ADDRESS_RE = re.compile(
    rf"{_TRIGGER}(?:在|于|是|为)?[ ]?{LABEL_GAP}[ ]?(?P<address>"
    rf"(?P<place>[{_CJK}]{{0,{_BEFORE_END}}}?(?:{_ENDS})[{_CJK}]{{0,{_AFTER_END}}}?|[{_CJK}]{{1,12}}?)? ?(?P<parts>{_NUMBERED})(?: ?(?:(?!的)[{_CJK}A-Za-z]){{1,12}}? ?{_NUMBERED}){{0,3}})")
# The province, city, district or county names a place starts with (not 小区, 园区, 超市 …), kept before the mask.
_ADMIN_PREFIX_RE = re.compile(
    rf"(?:(?:(?![路街巷道弄村苑院])[{_CJK}]){{1,7}}?(?:省|自治区|(?<![超夜集菜城门])市|县|旗|(?<![小社园校厂街片景宅活舍])区))*")
_GROUP_BEFORE = re.compile(r"(?:员工|职工|人员)$")
_GROUP_AFTER = re.compile(rf"(?:附近|周边|一带)?的[{_CJK}]{{0,4}}?(?:员工|职工|人员|同事|住户)")
# Whose place a 地址/所在地 label names, read from its qualifier (the Chinese words just before it on its line), the word
# nearest the label deciding: a person or their home (户籍所在地, 身份证地址, 紧急联系人地址, 家里地址, 员工张三的地址),
# or an organisation, its place or what is done there (公司地址, 用人单位所在地, 新员工报到地址, 培训地址, 工作地点所在地).
# A weak word (联系, 邮寄, 详细 …) names a person only where no organisation is named (公司联系地址 is the company's).
# Other qualifiers (快递地址, 宿舍地址, 新地址, 张三地址) leave the label bare. `\Z`: a line's end is no qualifier's.
_QUALIFIER = re.compile(rf"[{_CJK}]{{1,10}}\Z")
_HOME_WORD = r"(?<![国大专商厂店卖买作画农东玩])家"  # 家 of a home, not of 国家, 专家, 商家 …
_WHOSE = re.compile(
    rf"(?P<person>{_HOME_WORD}|户籍|户口|身份证|证件|居住|常住|本人|个人|我(?![们司方])|紧急|配偶|父母|子女"
    r"|亲属|(?:联系|收件|收货|申请|当事)人|(?:员工|职工)(?=(?:[\u4e00-\u9fff]{1,4}的)?$))"  # 员工张三的, not 员工可到以下
    r"|(?P<organisation>[厂商店]家|公司|单位|企业|机构|组织|部门?|处|科|中心|委员会|政府|局|法院|医院|学校|银行|[门网]?店|总部|项目|[工厂]厂|园区"
    r"|基地|场所|场地|会场|考场|办公|工作|注册|经营|营业|生产|报到|培训|体检|面试|考试|会议|活动|办事|办理|受理|服务|咨询|仲裁|报名"
    r"|领取|提交|递交|投递|发票|开票|收发|仓库|门诊|网点|窗口)"
    r"|(?P<weak>联系|通讯|通信|邮寄|寄送|收件|收货|详细|现)")
# A bare label or 寄到 takes a home's numbered pair (3单元501室, 2幢301, 12-3-501: `_HOME_PAIR`), or any address after a
# word for a person in its sentence (我, 本人, 家, 姓名 …; a form's label lines run on without 。), never one an office's,
# a department's or a room's name follows (…2幢301室财务部, …301室 人力资源部收), nor a bare label whose line's clause
# before it ends in an organisation's name (寄到公司人力资源部，地址：…, 调岗至杭州分公司，地址：… are theirs; a form's
# field 部门：人力资源部，地址：… is not a clause about a place).
_SENTENCE_END = re.compile(r"[。！？!?；;]")
_PERSON_IN_SENTENCE = re.compile(
    rf"我(?![们司方])|本人|{_HOME_WORD}|姓名|配偶|父母|亲属|户籍|户口|身份证|(?:收件|收货|紧急联系|当事)人")
_OFFICE_BUILDING = re.compile(r"(?:行政|办公|综合|写字|教学|科研|门诊)楼")  # 送至行政楼2栋301室: a workplace's pair
_OFFICE_AFTER = re.compile(  # right after the address (…301室财务部): after a comma it may be the person's department
    rf" ?[{_CJK}]{{0,8}}?(?:部|处|科|中心|公司|集团|委员会|办公室|会议室|收发室|前台|大厅|窗口|柜台|服务台)收?(?![{_CJK}])")
_ORGANISATIONS = r"(?:公司|单位|企业|机构|部|处|科|中心|委员会|政府|局|法院|医院|学校|银行|总部|集团|办公室|前台|窗口)"
_CLAUSE_END = r"[ \t]*[，,][ \t]*\Z"  # 人力资源部，地址 (a space or a bracket may end a roster's department field)
# a clause ending in an organisation's name, maybe what is held there (培训在公司总部举行，地址：…)
_ORGANISATION_CLAUSE = re.compile(rf"{_ORGANISATIONS}(?:举行|举办|召开|进行|开展)?{_CLAUSE_END}")
_FIELD_CLAUSE = re.compile(rf"[:：][^，,]*{_CLAUSE_END}")  # 部门：人力资源部， a form's field
_LOOK_BACK = 80  # how far before a label its clause or a word for a person is read
# A home's numbered pair: a unit or a building then a number (3单元501室, 2幢301), or building-unit-room (12-3-501).
_HOME_PAIR = re.compile(r"(?:单元|幢|栋) ?-?(?:\d|[一二三四五六七八九十零〇两])|\d+-\d+-\d+")


def _whose(match: re.Match[str]) -> str:
    """"person", "organisation" or "" (a bare label): whose place the 地址/所在地 label names."""
    qualifier = _QUALIFIER.search(match.string, max(0, match.start("label") - 10), match.start("label"))
    words = [word.lastgroup for word in _WHOSE.finditer(qualifier.group() if qualifier else "")]
    strong = [word for word in words if word != "weak"]
    return strong[-1] if strong else "person" if words else ""


def _office(match: re.Match[str]) -> bool:
    """An office's name after the address (…301室财务部) or an office building in it (行政楼2栋301室)."""
    return bool(_OFFICE_AFTER.match(match.string, match.end()) or _OFFICE_BUILDING.search(match.group("address")))


def _personal(match: re.Match[str]) -> bool:
    """A bare label or 寄到 said of a person's place: a home's numbered pair or a word for a person earlier in the
    sentence; no office after it, no organisation's clause before a label."""
    text, start = match.string, match.start()
    if _office(match):
        return False
    window = max(0, start - _LOOK_BACK)
    line_start = text.rfind("\n", window, start) + 1 or window
    line = _SENTENCE_END.split(text[line_start:start])[-1]  # the label's line, its sentence
    if match.group("label") and _ORGANISATION_CLAUSE.search(line) and not _FIELD_CLAUSE.search(line):
        return False
    if _HOME_PAIR.search(match.group("address")):
        return True
    sentence = _SENTENCE_END.split(text[window:start])[-1]
    return bool(_PERSON_IN_SENTENCE.search(sentence))


def address(match: re.Match[str]) -> Span | None:
    """A road or estate (maybe its 东区) before the numbers, or two numbered parts (3号楼2单元501), not a lone 2号; a
    bare 住 only before a named place or two parts; a label only as `_whose` or `_personal` reads it, 寄到 also only
    before a home's numbered pair; never words about a group. Masked from the road or estate on."""
    text, place = match.string, match.group("place") or ""
    parts = len(re.findall(r"\d+|[A-Za-z]|[一二三四五六七八九十百零〇两]+", match.group("parts")))
    if not (re.search(rf"(?:{_STREET})(?:[东西南北中]区)?$", place) or parts >= 2) or (
            match.group("bare") and parts < 2 and not re.search(rf"(?:{_ENDS})$", place)):
        return None
    if match.group("label"):
        whose = _whose(match)
        if whose == "organisation" or (not whose and not _personal(match)):
            return None
    elif match.group("sent") and not match.group("home") and not (
            _HOME_PAIR.search(match.group("address")) and not _office(match)):
        return None  # 寄到 a home's numbered pair, whoever's sentence it is
    if (_GROUP_BEFORE.search(text, max(0, match.start() - 2), match.start()) and not match.group("label")
            or _GROUP_AFTER.match(text, match.end())):  # 员工住在… is a group; 员工地址：… one employee's
        return None
    prefix = _ADMIN_PREFIX_RE.match(place)
    return match.start("address") + (prefix.end() if prefix else 0), match.end("address")
