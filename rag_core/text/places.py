"""China's cities by name: a closed class of facts, so a place is known without a tagger's guess.

jieba tags many cities as a place (ns) but not all: 合肥 is a plain noun to it, 石家庄, 大连, 拉萨 and 义乌 are
unknown words it splits or tags otherwise. 我现在在合肥上班 must still say where the person works now. The names are
the prefecture-level divisions (cities, autonomous prefectures, leagues and regions, by their short everyday name,
without 市/州/盟/地区), the municipalities, Hong Kong, Macao and Taiwan's large cities, plus county-level cities
people often name as where they work (义乌, 昆山). Written from the administrative divisions as of the 2020s.
"""

from __future__ import annotations

_PREFECTURES = """
北京 上海 天津 重庆 香港 澳门 台北 新北 桃园 台中 台南 高雄 基隆 新竹
石家庄 唐山 秦皇岛 邯郸 邢台 保定 张家口 承德 沧州 廊坊 衡水
太原 大同 阳泉 长治 晋城 朔州 晋中 运城 忻州 临汾 吕梁
呼和浩特 包头 乌海 赤峰 通辽 鄂尔多斯 呼伦贝尔 巴彦淖尔 乌兰察布 兴安 锡林郭勒 阿拉善
沈阳 大连 鞍山 抚顺 本溪 丹东 锦州 营口 阜新 辽阳 盘锦 铁岭 朝阳 葫芦岛
长春 吉林 四平 辽源 通化 白山 松原 白城 延边
哈尔滨 齐齐哈尔 鸡西 鹤岗 双鸭山 大庆 伊春 佳木斯 七台河 牡丹江 黑河 绥化 大兴安岭
南京 无锡 徐州 常州 苏州 南通 连云港 淮安 盐城 扬州 镇江 泰州 宿迁
杭州 宁波 温州 嘉兴 湖州 绍兴 金华 衢州 舟山 台州 丽水
合肥 芜湖 蚌埠 淮南 马鞍山 淮北 铜陵 安庆 黄山 滁州 阜阳 宿州 六安 亳州 池州 宣城
福州 厦门 莆田 三明 泉州 漳州 南平 龙岩 宁德
南昌 景德镇 萍乡 九江 新余 鹰潭 赣州 吉安 宜春 抚州 上饶
济南 青岛 淄博 枣庄 东营 烟台 潍坊 济宁 泰安 威海 日照 临沂 德州 聊城 滨州 菏泽
郑州 开封 洛阳 平顶山 安阳 鹤壁 新乡 焦作 濮阳 许昌 漯河 三门峡 南阳 商丘 信阳 周口 驻马店
武汉 黄石 十堰 宜昌 襄阳 鄂州 荆门 孝感 荆州 黄冈 咸宁 随州 恩施
长沙 株洲 湘潭 衡阳 邵阳 岳阳 常德 张家界 益阳 郴州 永州 怀化 娄底 湘西
广州 韶关 深圳 珠海 汕头 佛山 江门 湛江 茂名 肇庆 惠州 梅州 汕尾 河源 阳江 清远 东莞 中山 潮州 揭阳 云浮
南宁 柳州 桂林 梧州 北海 防城港 钦州 贵港 玉林 百色 贺州 河池 崇左
海口 三亚 三沙 儋州
成都 自贡 攀枝花 泸州 德阳 绵阳 广元 遂宁 内江 乐山 南充 眉山 宜宾 广安 达州 雅安 巴中 资阳 阿坝 甘孜 凉山
贵阳 六盘水 遵义 安顺 毕节 铜仁 黔西南 黔东南 黔南
昆明 曲靖 玉溪 保山 昭通 丽江 普洱 临沧 楚雄 红河 文山 西双版纳 大理 德宏 怒江 迪庆
拉萨 日喀则 昌都 林芝 山南 那曲
西安 铜川 宝鸡 咸阳 渭南 延安 汉中 榆林 安康 商洛
兰州 嘉峪关 金昌 天水 武威 张掖 平凉 酒泉 庆阳 定西 陇南 临夏 甘南
西宁 海东 海北 黄南 果洛 玉树 海西
银川 石嘴山 吴忠 固原 中卫
乌鲁木齐 克拉玛依 吐鲁番 哈密 昌吉 博尔塔拉 巴音郭楞 阿克苏 克孜勒苏 喀什 和田 伊犁 塔城 阿勒泰
"""

# County-level cities often named as a place of work (and those administered directly by a province).
_COUNTY_CITIES = """
义乌 昆山 江阴 张家港 常熟 太仓 宜兴 溧阳 丹阳 靖江 泰兴 如皋 启东 邳州 新沂
慈溪 余姚 诸暨 海宁 桐乡 平湖 温岭 临海 乐清 瑞安 永康 东阳 兰溪 建德 嵊州
晋江 石狮 南安 福清 武夷山 寿光 青州 诸城 龙口 蓬莱 招远 荣成 乳山 胶州 平度 莱西 滕州 邹城 曲阜 肥城 新泰
巩义 新郑 登封 禹州 长葛 永城 项城 济源 汝州 仙桃 天门 潜江 汉川 大冶 枝江 宜都 丹江口 老河口
浏阳 醴陵 韶山 耒阳 吉首 英德 台山 开平 鹤山 四会 普宁 陆丰 阳春 化州 高州 信宜 廉江 吴川 雷州 兴宁 罗定
东兴 凭祥 北流 桂平 琼海 万宁 文昌 五指山 峨眉山 都江堰 彭州 邛崃 崇州 简阳 西昌 康定 马尔康
仁怀 凯里 都匀 兴义 清镇 赤水 个旧 开远 蒙自 景洪 瑞丽 芒市 香格里拉 腾冲 韩城 华阴 神木 敦煌 玉门 格尔木 德令哈
库尔勒 石河子 伊宁 奎屯 满洲里 二连浩特 霍尔果斯 扎兰屯 牙克石 绥芬河 珲春 延吉 敦化 集安 公主岭 梅河口
迁安 遵化 三河 涿州 定州 辛集 霸州 任丘 黄骅 武安 介休 孝义 汾阳 侯马 古交 瓦房店 庄河 海城 兴城
井冈山 瑞金 乐平 高安 丰城 樟树 贵溪 桐城 天长 明光 界首 宁国
"""

# Names that are everyday words or a well-known employer's short name before they are a city (阿里 = Alibaba,
# 来宾 guest, 东方 east, 白银 silver): left out, so 我在阿里上班 moves nobody to Tibet. Said with 市 they still count.
_AMBIGUOUS = frozenset("阿里 来宾 东方 白银".split())

CITIES: frozenset[str] = frozenset((_PREFECTURES + _COUNTY_CITIES).split()) - _AMBIGUOUS


def is_city(name: str) -> bool:
    """Whether a name (without 市) is a Chinese city or prefecture: 合肥, 石家庄, 义乌."""
    return (name or "").strip().removesuffix("市") in CITIES


# Names a branch (分公司/办事处) is called by that are no city, though jieba tags many a place (ns): regions and
# directions (华东分公司, 东区办事处), new districts, provinces and countries (a province's branch says nothing against
# 常驻南京), and the districts of the large cities most often named alone (浦东分公司 is in Shanghai).
_NOT_A_CITY = frozenset("""
华东 华南 华北 华中 华西 西南 西北 东北 东南 江南 江北 长三角 珠三角 京津冀 大湾区 湾区 新区 城东 城西 城南 城北
东区 西区 南区 北区 中区 亚太 北美 南美 欧洲 亚洲 非洲 美洲 东南亚 中东 海外 国际 境外 国外 全国 华夏 内地 大陆
河北 山西 辽宁 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 贵州 云南 陕西 甘肃 青海 台湾
内蒙古 广西 西藏 宁夏 新疆 日本 越南 印度 印尼 巴西 意大利 西班牙 加拿大 澳洲 澳大利亚 俄罗斯 马来西亚 菲律宾
墨西哥 土耳其 埃及 南非 新西兰 荷兰 瑞士 瑞典 以色列 沙特 阿联酋 柬埔寨 缅甸 老挝 蒙古 朝鲜 欧盟
浦东 浦西 闵行 徐汇 静安 黄浦 长宁 普陀 虹口 杨浦 宝山 嘉定 松江 青浦 奉贤 崇明 海淀 东城 西城 丰台 通州 顺义
昌平 大兴 亦庄 望京 南山 福田 罗湖 宝安 龙岗 龙华 前海 天河 越秀 海珠 番禺 滨江 西湖 余杭 萧山 江宁 光谷 渝中
""".split())


def branch_city(name: str, single_place: bool) -> str | None:
    """The city a branch's name (what stands before 分公司/办事处) gives: a known city (合肥), a known city with its
    district (上海浦东 → 上海), or a single place name jieba tags (`single_place`: 新加坡, 东京, 纽约) that is no
    region, province, country or district (`_NOT_A_CITY`, or a name in 国/省/洲/区: 华南区). A branch named by an
    ordinal or a function (第二, 销售, 合资) is no place to jieba, so gives none."""
    name = (name or "").strip().removesuffix("市")
    if is_city(name):
        return name
    if name in _NOT_A_CITY or name.endswith(("国", "省", "洲", "区")):
        return None
    prefix = next((name[:k] for k in range(len(name) - 1, 1, -1) if is_city(name[:k])), None)
    if prefix:
        return prefix
    return name if single_place else None
