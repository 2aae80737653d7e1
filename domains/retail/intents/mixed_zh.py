"""Chinese messages written with English words in them ("帮我cancel一下", "我的package到哪了"),
as bilingual customers type them; noise.mix makes more from the Chinese templates."""

from __future__ import annotations

from domains.retail.intents.group import Group, group

MIXED_ZH: tuple[Group, ...] = (
    group(
        "mixed",
        "cancel_order",
        """
        帮我cancel一下{order}
        {order}帮我cancel掉
        这个order我不要了，cancel吧
        """,
    ),
    group(
        "mixed",
        "track_shipment",
        """
        我的package到哪了
        {order}的tracking number是多少
        {order}的ETA是什么时候
        """,
    ),
    group(
        "mixed",
        "return_items",
        """
        {product}我想return
        帮我把{order} return掉
        """,
    ),
    group(
        "mixed",
        "refund_status",
        """
        我的refund到账了吗
        {order}的refund呢
        """,
    ),
    group(
        "mixed",
        "modify_order",
        """
        {order}的address改成{address}
        {order}的payment换成{payment}
        """,
    ),
    group(
        "mixed",
        "order_status",
        """
        帮我check一下{order}的status
        {order}ship了吗
        我的order现在什么status
        """,
    ),
    group(
        "mixed",
        "exchange_items",
        """
        我想exchange一下{product}
        收到的{product}想换个size
        """,
    ),
    group(
        "mixed",
        "delay_complaint",
        """
        {order}的delivery也太慢了吧，delay好几天了
        我的package怎么还没到，都late了
        """,
    ),
    group(
        "mixed",
        "human_handoff",
        """
        帮我转个human agent
        我要找real person
        """,
    ),
    group(
        "mixed",
        "product_info",
        """
        这个{product}有stock吗
        {product}有什么color
        """,
    ),
    group(
        "mixed",
        "update_account",
        """
        update一下我account的地址，{address}
        帮我把account的default address改成{address}
        """,
    ),
    group(
        "mixed",
        "notify",
        """
        给我发个email
        {order}有update就email我
        """,
    ),
)
