-- The retail domain in relational form: the tau2 retail document (products,
-- users, orders) split into entities and ordered child rows, plus the
-- logistics view (shipments, tracking events).
--
-- Lists keep their order in `position` columns so a document loaded and
-- exported again is byte-identical. Money is unconstrained `numeric` so the
-- decimal digits of every amount survive exactly (17.0 stays 17.0).
-- numeric has no negative zero, yet a computed balance or price difference
-- can be -0.0 in Python (round(-1e-17, 2)) and prints as such, so the two
-- computed amounts carry a `_negative_zero` flag.

CREATE TABLE IF NOT EXISTS products (
    product_id text PRIMARY KEY,
    name       text NOT NULL UNIQUE
);

CREATE TABLE IF NOT EXISTS product_variants (
    item_id    text    PRIMARY KEY,
    product_id text    NOT NULL REFERENCES products (product_id),
    position   integer NOT NULL CHECK (position >= 0),
    price      numeric NOT NULL CHECK (price >= 0),
    available  boolean NOT NULL,
    UNIQUE (product_id, position),
    -- Target of the composite keys below: an ordered item must be a variant
    -- of the product the order line names.
    UNIQUE (product_id, item_id)
);

CREATE TABLE IF NOT EXISTS variant_options (
    item_id  text    NOT NULL REFERENCES product_variants (item_id) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position >= 0),
    name     text    NOT NULL,
    value    text    NOT NULL,
    PRIMARY KEY (item_id, position),
    UNIQUE (item_id, name)
);

CREATE TABLE IF NOT EXISTS users (
    user_id    text PRIMARY KEY,
    first_name text NOT NULL,
    last_name  text NOT NULL,
    email      text NOT NULL,
    address1   text NOT NULL,
    address2   text NOT NULL,
    city       text NOT NULL,
    country    text NOT NULL,
    state      text NOT NULL,
    zip        text NOT NULL
);
-- Authentication looks users up case-insensitively; an email must identify
-- exactly one user.
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (lower(email));
CREATE INDEX IF NOT EXISTS users_name_zip_idx ON users (lower(first_name), lower(last_name), zip);

CREATE TABLE IF NOT EXISTS payment_methods (
    id        text    PRIMARY KEY,
    user_id   text    NOT NULL REFERENCES users (user_id),
    position  integer NOT NULL CHECK (position >= 0),
    source    text    NOT NULL CHECK (source IN ('credit_card', 'paypal', 'gift_card')),
    brand     text,
    last_four text,
    balance   numeric CHECK (balance >= 0),
    balance_negative_zero boolean NOT NULL DEFAULT false
        CHECK (NOT balance_negative_zero OR balance = 0),
    -- Each kind carries exactly its own fields.
    CHECK ((source = 'credit_card') = (brand IS NOT NULL AND last_four IS NOT NULL)),
    CHECK (source = 'credit_card' OR (brand IS NULL AND last_four IS NULL)),
    CHECK ((source = 'gift_card') = (balance IS NOT NULL)),
    -- Deferred: rewriting a user's list may swap positions inside one statement batch.
    UNIQUE (user_id, position) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX IF NOT EXISTS payment_methods_user_idx ON payment_methods (user_id);

CREATE TABLE IF NOT EXISTS orders (
    order_id      text PRIMARY KEY,
    user_id       text NOT NULL REFERENCES users (user_id),
    -- Index of the order in its user's `orders` list; NULL when the user's
    -- list does not name it (tau2 keeps the list and user_id separately).
    user_position integer CHECK (user_position >= 0),
    address1      text NOT NULL,
    address2      text NOT NULL,
    city          text NOT NULL,
    country       text NOT NULL,
    state         text NOT NULL,
    zip           text NOT NULL,
    status        text NOT NULL CHECK (status IN (
                      'pending', 'pending (item modified)', 'processed', 'delivered',
                      'cancelled', 'return requested', 'exchange requested')),
    cancel_reason text CHECK (cancel_reason IN ('no longer needed', 'ordered by mistake')),
    return_payment_method_id   text REFERENCES payment_methods (id),
    exchange_payment_method_id text REFERENCES payment_methods (id),
    exchange_price_difference  numeric,
    exchange_price_difference_negative_zero boolean NOT NULL DEFAULT false
        CHECK (NOT exchange_price_difference_negative_zero OR exchange_price_difference = 0),
    -- The three item lists are optional in tau2; these flags tell an absent
    -- list (null) from an empty one, which rows alone cannot.
    has_return_items       boolean NOT NULL DEFAULT false,
    has_exchange_items     boolean NOT NULL DEFAULT false,
    has_exchange_new_items boolean NOT NULL DEFAULT false,
    UNIQUE (user_id, user_position) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX IF NOT EXISTS orders_user_idx ON orders (user_id);
CREATE INDEX IF NOT EXISTS orders_status_idx ON orders (status);

CREATE TABLE IF NOT EXISTS order_items (
    order_id   text    NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
    position   integer NOT NULL CHECK (position >= 0),
    -- Not unique per order: tau2 orders may hold the same variant twice.
    item_id    text    NOT NULL,
    product_id text    NOT NULL,
    name       text    NOT NULL,
    price      numeric NOT NULL CHECK (price >= 0),
    PRIMARY KEY (order_id, position),
    FOREIGN KEY (product_id, item_id) REFERENCES product_variants (product_id, item_id)
);
CREATE INDEX IF NOT EXISTS order_items_item_idx ON order_items (item_id);

-- The options as they were when ordered (a snapshot, not a join to the variant).
CREATE TABLE IF NOT EXISTS order_item_options (
    order_id      text    NOT NULL,
    item_position integer NOT NULL,
    position      integer NOT NULL CHECK (position >= 0),
    name          text    NOT NULL,
    value         text    NOT NULL,
    PRIMARY KEY (order_id, item_position, position),
    UNIQUE (order_id, item_position, name),
    FOREIGN KEY (order_id, item_position) REFERENCES order_items (order_id, position)
        ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS order_fulfillments (
    order_id text    NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position >= 0),
    PRIMARY KEY (order_id, position)
);

-- No key to shipments: an order may name a tracking number the carrier has
-- not reported yet; shipments are the carrier's side of the story.
CREATE TABLE IF NOT EXISTS fulfillment_tracking_ids (
    order_id             text    NOT NULL,
    fulfillment_position integer NOT NULL,
    position             integer NOT NULL CHECK (position >= 0),
    tracking_id          text    NOT NULL,
    PRIMARY KEY (order_id, fulfillment_position, position),
    FOREIGN KEY (order_id, fulfillment_position)
        REFERENCES order_fulfillments (order_id, position) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS fulfillment_tracking_ids_tracking_idx
    ON fulfillment_tracking_ids (tracking_id);

CREATE TABLE IF NOT EXISTS fulfillment_items (
    order_id             text    NOT NULL,
    fulfillment_position integer NOT NULL,
    position             integer NOT NULL CHECK (position >= 0),
    item_id              text    NOT NULL REFERENCES product_variants (item_id),
    PRIMARY KEY (order_id, fulfillment_position, position),
    FOREIGN KEY (order_id, fulfillment_position)
        REFERENCES order_fulfillments (order_id, position) ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS order_payments (
    order_id          text    NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
    position          integer NOT NULL CHECK (position >= 0),
    transaction_type  text    NOT NULL CHECK (transaction_type IN ('payment', 'refund')),
    amount            numeric NOT NULL CHECK (amount >= 0),
    payment_method_id text    NOT NULL REFERENCES payment_methods (id),
    PRIMARY KEY (order_id, position)
);
CREATE INDEX IF NOT EXISTS order_payments_method_idx ON order_payments (payment_method_id);

-- return_items, exchange_items and exchange_new_items, one row per entry.
CREATE TABLE IF NOT EXISTS order_request_items (
    order_id text    NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
    kind     text    NOT NULL CHECK (kind IN ('return', 'exchange', 'exchange_new')),
    position integer NOT NULL CHECK (position >= 0),
    item_id  text    NOT NULL REFERENCES product_variants (item_id),
    PRIMARY KEY (order_id, kind, position)
);

CREATE TABLE IF NOT EXISTS shipments (
    tracking_id             text PRIMARY KEY,
    carrier                 text NOT NULL,
    origin                  text NOT NULL,
    destination             text NOT NULL,
    promised_delivery_date  date NOT NULL,
    status                  text NOT NULL CHECK (status IN (
                                'label_created', 'in_transit', 'out_for_delivery',
                                'delivered', 'delayed', 'cancelled'))
);
CREATE INDEX IF NOT EXISTS shipments_status_idx ON shipments (status);

CREATE TABLE IF NOT EXISTS tracking_events (
    tracking_id text        NOT NULL REFERENCES shipments (tracking_id) ON DELETE CASCADE,
    seq         integer     NOT NULL CHECK (seq >= 0),
    occurred_at timestamptz NOT NULL,
    location    text        NOT NULL,
    event_code  text        NOT NULL CHECK (event_code IN (
                    'label_created', 'picked_up', 'arrived_at_hub', 'departed_hub',
                    'delay', 'out_for_delivery', 'delivered', 'cancelled')),
    description text        NOT NULL,
    PRIMARY KEY (tracking_id, seq)
);
