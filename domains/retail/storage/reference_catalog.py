"""Vocabulary for the project's own reference data (not tau2's).

Product types with their option dimensions, and the names and places users
are drawn from. The generator combines these with a seeded RNG.
"""

from __future__ import annotations

# (product name, base price, {option: values}); options keep this order.
PRODUCT_SPECS: tuple[tuple[str, float, dict[str, tuple[str, ...]]], ...] = (
    ("Desk Lamp", 64.0, {"finish": ("brass", "matte black", "white"), "bulb": ("LED", "halogen"), "arm": ("fixed", "articulated")}),
    ("Ceramic Mug", 18.0, {"capacity": ("250ml", "350ml", "450ml"), "glaze": ("speckled", "gloss", "matte")}),
    ("Trail Backpack", 129.0, {"volume": ("20L", "30L", "45L"), "color": ("forest", "slate", "rust"), "frame": ("frameless", "internal")}),
    ("Rain Jacket", 149.0, {"size": ("S", "M", "L", "XL"), "color": ("navy", "yellow", "olive"), "hood": ("packable", "fixed")}),
    ("Cast Iron Skillet", 45.0, {"diameter": ("8in", "10in", "12in"), "seasoning": ("pre-seasoned", "raw")}),
    ("Wool Socks", 22.0, {"size": ("S", "M", "L"), "weight": ("light", "mid", "heavy"), "color": ("grey", "charcoal", "oatmeal")}),
    ("Fountain Pen", 89.0, {"nib": ("EF", "F", "M", "B"), "barrel": ("resin", "steel", "wood")}),
    ("Notebook", 16.0, {"ruling": ("dot", "grid", "lined", "blank"), "cover": ("hard", "soft"), "pages": ("120", "240")}),
    ("Bike Helmet", 79.0, {"size": ("S", "M", "L"), "color": ("white", "black", "orange"), "visor": ("yes", "no")}),
    ("Yoga Block", 19.0, {"material": ("cork", "foam", "bamboo"), "thickness": ("3in", "4in")}),
    ("Pour-Over Kettle", 72.0, {"capacity": ("0.6L", "0.9L", "1.2L"), "finish": ("stainless", "matte black", "copper"), "control": ("stovetop", "electric")}),
    ("Chef Knife", 110.0, {"length": ("6in", "8in", "10in"), "steel": ("carbon", "stainless", "damascus"), "handle": ("walnut", "micarta")}),
    ("Cutting Board", 48.0, {"wood": ("maple", "walnut", "teak"), "size": ("small", "medium", "large")}),
    ("Throw Blanket", 85.0, {"material": ("wool", "cotton", "fleece"), "color": ("ivory", "sage", "terracotta"), "size": ("50x60in", "60x80in")}),
    ("Plant Pot", 26.0, {"diameter": ("10cm", "15cm", "20cm"), "material": ("terracotta", "ceramic", "concrete"), "drainage": ("yes", "no")}),
    ("Camping Stove", 95.0, {"fuel": ("butane", "propane", "multi-fuel"), "burners": ("1", "2")}),
    ("Sleeping Bag", 179.0, {"rating": ("-5C", "0C", "5C"), "fill": ("down", "synthetic"), "length": ("regular", "long")}),
    ("Headlamp", 39.0, {"lumens": ("200", "400", "800"), "battery": ("AAA", "rechargeable"), "color": ("black", "red")}),
    ("Travel Pillow", 29.0, {"material": ("memory foam", "inflatable", "microbead"), "color": ("grey", "navy")}),
    ("Wall Clock", 58.0, {"diameter": ("25cm", "35cm"), "face": ("white", "black", "wood"), "movement": ("quartz", "silent sweep")}),
    ("Bluetooth Speaker", 119.0, {"color": ("black", "teal", "sand"), "waterproof": ("IPX4", "IPX7"), "battery": ("10h", "20h")}),
    ("USB-C Hub", 54.0, {"ports": ("4", "6", "8"), "ethernet": ("yes", "no"), "finish": ("silver", "space grey")}),
    ("Monitor Stand", 69.0, {"material": ("bamboo", "aluminum", "steel"), "drawer": ("yes", "no")}),
    ("Ergonomic Mouse", 59.0, {"hand": ("right", "left"), "connection": ("wireless", "wired"), "size": ("medium", "large")}),
    ("Webcam", 99.0, {"resolution": ("720p", "1080p", "4K"), "microphone": ("mono", "stereo")}),
    ("Laptop Sleeve", 42.0, {"size": ("13in", "14in", "16in"), "material": ("felt", "neoprene", "leather"), "color": ("grey", "black", "tan")}),
    ("Phone Case", 25.0, {"fit": ("compact", "standard", "max"), "material": ("silicone", "leather", "clear"), "color": ("black", "blue", "clear")}),
    ("Power Bank", 65.0, {"capacity": ("10000mAh", "20000mAh", "26800mAh"), "output": ("18W", "45W", "65W")}),
    ("Electric Toothbrush", 89.0, {"modes": ("2", "4", "5"), "color": ("white", "black", "pink")}),
    ("Hair Dryer", 129.0, {"power": ("1200W", "1800W", "2200W"), "attachment": ("concentrator", "diffuser")}),
    ("Bath Towel Set", 74.0, {"color": ("white", "sand", "storm"), "material": ("cotton", "linen", "bamboo"), "pieces": ("2", "4", "6")}),
    ("Scented Candle", 34.0, {"scent": ("cedar", "fig", "sea salt", "lavender"), "size": ("small", "large"), "wick": ("cotton", "wood")}),
    ("Picture Frame", 28.0, {"size": ("5x7in", "8x10in", "11x14in"), "finish": ("oak", "black", "gold")}),
    ("Desk Organizer", 39.0, {"material": ("walnut", "acrylic", "steel"), "compartments": ("3", "5", "7")}),
    ("Jump Rope", 17.0, {"length": ("2.5m", "3m", "adjustable"), "handle": ("foam", "aluminum"), "weighted": ("yes", "no")}),
    ("Kettlebell", 55.0, {"weight": ("8kg", "12kg", "16kg", "20kg", "24kg"), "coating": ("cast iron", "vinyl")}),
    ("Resistance Bands", 24.0, {"level": ("light", "medium", "heavy", "set"), "type": ("loop", "tube")}),
    ("Running Shorts", 38.0, {"size": ("S", "M", "L", "XL"), "inseam": ("5in", "7in"), "liner": ("yes", "no")}),
    ("Sun Hat", 32.0, {"size": ("S/M", "L/XL"), "brim": ("wide", "medium"), "color": ("natural", "khaki", "black")}),
    ("Umbrella", 36.0, {"canopy": ("compact", "golf"), "color": ("black", "navy", "clear"), "opening": ("auto", "manual")}),
    ("Lunch Box", 27.0, {"capacity": ("0.8L", "1.2L"), "material": ("stainless", "bamboo fiber", "glass"), "compartments": ("1", "2", "3")}),
    ("Water Filter Pitcher", 44.0, {"capacity": ("1.5L", "2.5L", "3.5L"), "filter": ("carbon", "mineral")}),
    ("French Press", 49.0, {"capacity": ("350ml", "600ml", "1L"), "body": ("glass", "stainless"), "color": ("silver", "black", "copper")}),
    ("Board Game", 46.0, {"players": ("2", "2-4", "2-6"), "genre": ("strategy", "party", "cooperative"), "edition": ("standard", "deluxe")}),
    ("Watercolor Set", 52.0, {"colors": ("12", "24", "36"), "format": ("pans", "tubes")}),
    ("Guitar Strings", 14.0, {"gauge": ("extra light", "light", "medium"), "material": ("nickel", "phosphor bronze", "80/20 bronze")}),
    ("Dog Leash", 23.0, {"length": ("1.2m", "1.8m", "retractable"), "material": ("nylon", "leather", "rope"), "color": ("red", "black", "blue")}),
    ("Bird Feeder", 31.0, {"type": ("tube", "platform", "window"), "capacity": ("0.5kg", "1kg", "2kg")}),
    ("Garden Hose", 47.0, {"length": ("15m", "25m", "30m"), "type": ("expandable", "rubber", "vinyl")}),
    ("Tool Kit", 84.0, {"pieces": ("24", "65", "120"), "case": ("soft", "hard"), "insulated": ("yes", "no")}),
)  # fmt: skip

FIRST_NAMES = (
    "Ada", "Bruno", "Carmen", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas",
    "Kira", "Luca", "Maya", "Nikhil", "Olga", "Pablo", "Quinn", "Rosa", "Samir", "Tessa",
    "Umar", "Vera", "Wes", "Ximena", "Yara", "Zane", "Amara", "Bjorn", "Chloe", "Diego",
    "Esme", "Felix", "Gwen", "Hugo", "Ivy", "Jasper", "Leila", "Milo", "Nora", "Otto",
)  # fmt: skip
LAST_NAMES = (
    "Abernathy", "Bellweather", "Castellano", "Dunmore", "Eskildsen", "Fairbanks", "Galloway",
    "Holmberg", "Iwasaki", "Jablonski", "Kowalczyk", "Lindqvist", "Marchetti", "Nakamura",
    "Okafor", "Pellegrini", "Quintero", "Rasmussen", "Szabo", "Thorne", "Ueda", "Valdivia",
    "Whitcombe", "Yilmaz", "Zielinski", "Arkwright", "Brennan", "Delacroix", "Ferreira", "Novak",
)  # fmt: skip
STREETS = (
    "Alder Lane", "Birch Court", "Canal Street", "Dover Road", "Elmwood Avenue", "Foundry Way",
    "Granite Street", "Harbor View", "Ironwood Drive", "Juniper Path", "Kestrel Road",
    "Lantern Street", "Millbrook Lane", "Northgate Avenue", "Orchard Row", "Prairie Drive",
)  # fmt: skip
# (city, state, first three digits of its zip codes)
CITIES = (
    ("Portland", "OR", "972"), ("Boise", "ID", "837"), ("Tucson", "AZ", "857"),
    ("Omaha", "NE", "681"), ("Madison", "WI", "537"), ("Raleigh", "NC", "276"),
    ("Richmond", "VA", "232"), ("Albany", "NY", "122"), ("Burlington", "VT", "054"),
    ("Savannah", "GA", "314"), ("Spokane", "WA", "992"), ("Tulsa", "OK", "741"),
    ("Des Moines", "IA", "503"), ("Providence", "RI", "029"), ("Anchorage", "AK", "995"),
    ("Santa Fe", "NM", "875"), ("Lexington", "KY", "405"), ("Duluth", "MN", "558"),
)  # fmt: skip
CARD_BRANDS = ("visa", "mastercard", "amex", "discover")
