-- The library-loans desk: members borrow copies of books; a loan can be
-- renewed while nobody holds the book; an overdue loan accrues a fine that a
-- fines officer may waive. Ids have fixed shapes so requests can name them:
-- members `M-1001`, books `BK-0001`, copies `C-0001`, loans `LN-20001`.
-- Fines are whole cents (integer), never floating point.

CREATE TABLE IF NOT EXISTS members (
    member_id text PRIMARY KEY CHECK (member_id ~ '^M-[0-9]{4}$'),
    name      text NOT NULL,
    email     text NOT NULL UNIQUE,
    lang      text NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'zh'))
);

CREATE TABLE IF NOT EXISTS books (
    book_id text PRIMARY KEY CHECK (book_id ~ '^BK-[0-9]{4}$'),
    title   text NOT NULL UNIQUE,
    author  text NOT NULL,
    year    integer NOT NULL
);

CREATE TABLE IF NOT EXISTS copies (
    copy_id text PRIMARY KEY CHECK (copy_id ~ '^C-[0-9]{4}$'),
    book_id text NOT NULL REFERENCES books (book_id),
    shelf   text NOT NULL
);

CREATE TABLE IF NOT EXISTS loans (
    loan_id     text PRIMARY KEY CHECK (loan_id ~ '^LN-[0-9]{5}$'),
    member_id   text    NOT NULL REFERENCES members (member_id),
    copy_id     text    NOT NULL REFERENCES copies (copy_id),
    borrowed_on date    NOT NULL,
    due_on      date    NOT NULL CHECK (due_on > borrowed_on),
    returned_on date,
    renewals    integer NOT NULL DEFAULT 0 CHECK (renewals BETWEEN 0 AND 2),
    fine_cents  integer NOT NULL DEFAULT 0 CHECK (fine_cents >= 0),
    fine_waived boolean NOT NULL DEFAULT false
);

-- One copy is out on at most one open loan.
CREATE UNIQUE INDEX IF NOT EXISTS loans_open_copy ON loans (copy_id) WHERE returned_on IS NULL;
CREATE INDEX IF NOT EXISTS loans_member ON loans (member_id);

CREATE TABLE IF NOT EXISTS holds (
    hold_id   text PRIMARY KEY CHECK (hold_id ~ '^H-[0-9]{4}$'),
    member_id text NOT NULL REFERENCES members (member_id),
    book_id   text NOT NULL REFERENCES books (book_id),
    placed_on date NOT NULL,
    UNIQUE (member_id, book_id)
);
