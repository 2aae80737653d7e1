-- Knowledge partitions and documents for role-scoped full-text search.
-- Documents are the project's own files (domains/retail/knowledge/), upserted
-- by skills.knowledge.sync_knowledge; the files stay the source of truth.

CREATE TABLE IF NOT EXISTS knowledge_partitions (
    name           text PRIMARY KEY,
    description    text        NOT NULL DEFAULT '',
    indexed_fields text[]      NOT NULL DEFAULT '{}',
    last_updated   date        NOT NULL,
    document_count integer     NOT NULL DEFAULT 0 CHECK (document_count >= 0),
    synced_at      timestamptz NOT NULL DEFAULT now()
);

-- Two tsvectors per document: 'english' (stemmed, from the non-CJK text) and
-- CJK character bigrams (unstemmed, 'simple'-style), since Postgres has no
-- Chinese parser. Queries are tokenised the same way and ranked with ts_rank.
CREATE TABLE IF NOT EXISTS knowledge_documents (
    partition     text        NOT NULL REFERENCES knowledge_partitions (name) ON DELETE CASCADE,
    slug          text        NOT NULL,
    title         text        NOT NULL,
    lang          text        NOT NULL,
    topic         text,
    fields        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    body          text        NOT NULL,
    content_hash  text        NOT NULL,
    last_updated  date        NOT NULL,
    search_en     tsvector    NOT NULL,
    search_cjk    tsvector    NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (partition, slug)
);
CREATE INDEX IF NOT EXISTS knowledge_documents_en_idx ON knowledge_documents USING GIN (search_en);
CREATE INDEX IF NOT EXISTS knowledge_documents_cjk_idx ON knowledge_documents USING GIN (search_cjk);
