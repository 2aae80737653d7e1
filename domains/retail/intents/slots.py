"""Slot values the templates are filled with: order ids, tau2 product names, addresses,
payment methods, reasons, options and e-mail addresses, in English and Chinese."""

from __future__ import annotations

import random

from nodes.language import Lang

# The tau2 retail catalogue's product names, with the Chinese a customer would write.
PRODUCTS: tuple[tuple[str, str], ...] = (
    ("Electric Kettle", "电热水壶"),
    ("Mechanical Keyboard", "机械键盘"),
    ("Vacuum Cleaner", "吸尘器"),
    ("Smartphone", "智能手机"),
    ("Jigsaw Puzzle", "拼图"),
    ("Skateboard", "滑板"),
    ("Wall Clock", "挂钟"),
    ("Backpack", "双肩包"),
    ("LED Light Bulb", "LED灯泡"),
    ("Pet Bed", "宠物床"),
    ("Notebook", "笔记本"),
    ("Indoor Security Camera", "室内监控摄像头"),
    ("Action Camera", "运动相机"),
    ("E-Reader", "电子阅读器"),
    ("Air Purifier", "空气净化器"),
    ("Espresso Machine", "意式咖啡机"),
    ("Yoga Mat", "瑜伽垫"),
    ("Laptop", "笔记本电脑"),
    ("Bluetooth Speaker", "蓝牙音箱"),
    ("Office Chair", "办公椅"),
    ("Smart Thermostat", "智能温控器"),
    ("Makeup Kit", "化妆套装"),
    ("Luggage Set", "行李箱套装"),
    ("Gaming Mouse", "游戏鼠标"),
    ("Wristwatch", "手表"),
    ("Garden Hose", "浇花水管"),
    ("Desk Lamp", "台灯"),
    ("Grill", "烤架"),
    ("Perfume", "香水"),
    ("Running Shoes", "跑鞋"),
    ("Portable Charger", "充电宝"),
    ("Smart Watch", "智能手表"),
    ("Headphones", "耳机"),
    ("Dumbbell Set", "哑铃套装"),
    ("Sunglasses", "太阳镜"),
    ("Electric Toothbrush", "电动牙刷"),
    ("Hiking Boots", "登山靴"),
    ("Sneakers", "运动鞋"),
    ("Cycling Helmet", "骑行头盔"),
    ("Coffee Maker", "咖啡机"),
    ("Tablet", "平板电脑"),
    ("Water Bottle", "水杯"),
    ("Fleece Jacket", "抓绒外套"),
    ("Bookshelf", "书架"),
    ("Digital Camera", "数码相机"),
    ("T-Shirt", "T恤"),
    ("Patio Umbrella", "庭院遮阳伞"),
    ("Bicycle", "自行车"),
    ("Tea Kettle", "烧水壶"),
    ("Wireless Earbuds", "无线耳机"),
)
STREETS = ("Oak St", "Maple Ave", "Elm Street", "Main St", "Cedar Lane", "Pine Rd", "Lake Drive")
CITIES = (
    ("Austin", "TX"),
    ("Denver", "CO"),
    ("Seattle", "WA"),
    ("Chicago", "IL"),
    ("Boston", "MA"),
    ("Phoenix", "AZ"),
)
ZH_ADDRESSES = ("北京市朝阳区建国路88号", "上海市浦东新区世纪大道100号", "深圳市南山区科技园8栋")
PAYMENTS_EN = ("my PayPal", "my credit card", "the gift card", "paypal", "my visa card")
PAYMENTS_ZH = ("PayPal", "信用卡", "礼品卡", "支付宝", "另一张信用卡")
PAYMENT_KINDS = ("credit_card", "paypal", "gift_card")
REASONS_EN = (
    "I ordered it by mistake",
    "I no longer need it",
    "I found a better price",
    "it arrived broken",
    "it's the wrong size",
    "it doesn't work",
    "I changed my mind",
)
REASONS_ZH = ("买错了", "不需要了", "别家更便宜", "收到就坏了", "尺码不合适", "用不了", "改主意了")
OPTIONS_EN = (
    "a bigger size",
    "the black one",
    "size M",
    "the blue version",
    "the 32GB model",
    "a smaller one",
    "the red colour",
    "size 10",
)
OPTIONS_ZH = ("大一号", "黑色", "M码", "蓝色款", "32GB", "小一号", "红色", "42码", "白色")
NAMES = (
    "john",
    "jane",
    "sara",
    "james",
    "mia",
    "noah",
    "liam",
    "emma",
    "olivia",
    "yusuf",
    "sofia",
    "chen",
    "aarav",
)
SURNAMES = (
    "doe",
    "brown",
    "johnson",
    "garcia",
    "smith",
    "wang",
    "lee",
    "ahmed",
    "rossi",
    "kim",
    "li",
    "patel",
)


# Things customers name that are not catalogue products: the request around them
# must read the same as around a product name.
PLAIN_THINGS: tuple[tuple[str, str], ...] = (
    ("lamp", "台灯"), ("kettle", "水壶"), ("shoes", "鞋子"), ("jacket", "外套"),
    ("blender", "搅拌机"), ("headset", "耳机"), ("mug", "杯子"), ("chair", "椅子"),
    ("shirt", "衬衫"), ("charger", "充电器"), ("toy", "玩具"), ("bag", "包"),
    ("rug", "地毯"), ("thing", "东西"), ("item", "商品"), ("stuff", "那个"),
    # Everyday goods beyond the catalogue, as customers name them.
    ("hair dryer", "吹风机"), ("monitor", "显示器"), ("phone case", "手机壳"),
    ("tent", "帐篷"), ("sofa", "沙发"), ("mattress", "床垫"), ("pillow", "枕头"),
    ("blanket", "毯子"), ("frying pan", "平底锅"), ("knife set", "刀具套装"),
    ("toaster", "面包机"), ("microwave", "微波炉"), ("printer", "打印机"), ("router", "路由器"),
    ("watch strap", "表带"), ("dress", "连衣裙"), ("jeans", "牛仔裤"), ("hoodie", "卫衣"),
    ("socks", "袜子"), ("sandals", "凉鞋"), ("lipstick", "口红"), ("stroller", "婴儿车"),
    ("scooter", "滑板车"), ("drone", "无人机"), ("rice cooker", "电饭煲"), ("fan", "电风扇"),
    ("desk", "书桌"), ("curtains", "窗帘"), ("power bank", "移动电源"), ("cable", "数据线"),
)  # fmt: skip


def fill(template: str, lang: Lang, rng: random.Random) -> str:
    """The template with every slot it names filled from `rng` (only those it names are
    drawn, so a template's wording never changes which values another receives)."""
    values: dict[str, str] = {}
    for name in SLOT_NAMES:
        if "{" + name + "}" in template:
            values[name] = draw(name, lang, rng)
    return template.format_map(values)


def draw(name: str, lang: Lang, rng: random.Random) -> str:
    """One value for the slot `name` in `lang`."""
    if name in ("order", "order2"):
        return order_id(rng)
    if name == "product":
        if rng.random() < 0.3:
            # A thing the catalogue does not name ("the lamp"): the request reads the same.
            en, zh = rng.choice(PLAIN_THINGS)
            return zh if lang == "zh" else en
        en, zh = rng.choice(PRODUCTS)
        return (
            zh
            if lang == "zh" and rng.random() < 0.8
            else (en if rng.random() < 0.6 else en.lower())
        )
    if name == "address":
        return address(lang, rng)
    if name == "payment":
        return payment(lang, rng)
    if name == "user":
        return f"{rng.choice(NAMES)}_{rng.choice(SURNAMES)}_{rng.randrange(1000, 10000)}"
    if name == "name":
        return f"{rng.choice(NAMES).title()} {rng.choice(SURNAMES).title()}"
    if name == "zip":
        return str(rng.randrange(10000, 99999))
    if name == "email":
        return f"{rng.choice(NAMES)}.{rng.choice(SURNAMES)}{rng.randrange(10, 99)}@example.com"
    pools = {
        "reason": REASONS_ZH if lang == "zh" else REASONS_EN,
        "option": OPTIONS_ZH if lang == "zh" else OPTIONS_EN,
    }
    return rng.choice(pools[name])


SLOT_NAMES = (
    "order",
    "order2",
    "product",
    "address",
    "payment",
    "reason",
    "option",
    "user",
    "email",
    "name",
    "zip",
)


def order_id(rng: random.Random) -> str:
    """An order id (always W + 7 digits) in one of the spellings customers use."""
    digits = f"{rng.randrange(10**7):07d}"
    return rng.choice(("#W", "#W", "W", "#W", "w", "#w")) + digits


def address(lang: Lang, rng: random.Random) -> str:
    """A postal address as a customer types it."""
    if lang == "zh" and rng.random() < 0.3:
        return rng.choice(ZH_ADDRESSES)
    city, state = rng.choice(CITIES)
    return f"{rng.randrange(1, 999)} {rng.choice(STREETS)}, {city}, {state} {rng.randrange(10000, 99999)}"


def payment(lang: Lang, rng: random.Random) -> str:
    """A payment method: a tau2 payment id or the words for one."""
    if rng.random() < 0.35:
        return f"{rng.choice(PAYMENT_KINDS)}_{rng.randrange(10**6, 10**7)}"
    return rng.choice(PAYMENTS_ZH if lang == "zh" else PAYMENTS_EN)
