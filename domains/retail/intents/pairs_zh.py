"""Chinese templates for the confusable pairs of LABELS.md: where-is-my-order (status and
tracking), lateness with tracking, a refund that is a return, where a refund is, and
reading all of one's orders (not a bulk change)."""

from __future__ import annotations

from domains.retail.intents.group import Group, group

PAIRS_ZH: tuple[Group, ...] = (
    group(
        "where_order",
        "order_status track_shipment",
        """
        我的订单在哪？
        我的订单{order}在哪里？
        订单{order}现在在哪
        {order}在哪儿？
        我的{product}订单在哪
        我的订单去哪了
        我买的东西在哪呢
        帮我看看订单{order}在哪
        {order}到哪了
        我的订单到哪了？
        订单{order}到哪里了
        我的订单到哪儿了
        我那个{product}的订单到哪了
        {order}在哪
        订单{order}在哪呢
        上周下的订单在哪里
        我的订单现在到哪儿了？
        我下的单在哪
        """,
    ),
    group(
        "lateness",
        "delay_complaint track_shipment",
        """
        预计什么时候到？是不是晚了？
        都晚了，现在到哪了？
        {order}迟到了，到底什么时候到？
        包裹超时了，现在在哪？
        {order}为什么晚了，什么时候能送到？
        {product}延误了，新的送达时间是哪天？
        昨天就该到了，给我一下快递单号
        {order}晚到了吗？还有什么时候到
        {order}都超时了，物流到哪了？
        等太久了，快递单号多少？
        晚了一周了，到底哪天能到？
        {order}延误了，是哪家快递？
        {order}为什么延迟，预计几号到？
        """,
    ),
    group(
        "return_refund",
        "return_items",
        """
        退掉并退款
        {order}退掉并退款
        {product}退了，钱退到{payment}
        {order}退款到我的卡上
        把{order}的钱退给我，{reason}
        收到的{product}我要退款
        退货退款
        {order}我要退货退款
        {product}{reason}，申请退款
        东西退了，钱退回来
        {order}给我全额退款，东西不要了
        收到的{product}坏了，我要退款
        把收到的{product}退款到{payment}
        {order}申请退款，{reason}
        {order}收到了，我想退款
        {product}昨天到的，给我退款吧
        """,
    ),
    group(
        "refund_where",
        "refund_status",
        """
        {product}的退款到哪了？
        {order}的退款呢
        退款还没到账，钱去哪了？
        {order}已经退货了，钱呢？
        退回去的{product}什么时候退款
        {order}一共退了多少？
        {order}的退款退到哪个支付方式了？
        """,
    ),
    group(
        "all_read",
        "order_status",
        """
        列出我所有的订单
        我所有的订单都是什么状态？
        看看我全部的订单
        我账户上一共有哪些订单
        我的订单都怎么样了
        把我所有订单列出来看看
        我每个订单的状态是什么
        我全部的订单都发货了吗？
        查一下我所有的订单
        我想看全部订单
        我所有待发货的订单有哪些
        给我看看我以前所有的订单
        我的所有订单都到了吗
        帮我看一下我名下全部的订单
        显示我全部订单的状态
        """,
    ),
)
