-- Version 2: content larger than bank.ChunkThreshold is stored as a tree of
-- chunk blobs; a revision maps the content's hash to the tree's root. The
-- revisions written before keep '{}': all their content is whole blobs.
-- Adding a column with a constant default rewrites no row (and fires no
-- trigger), so the append-only history is left as it was.
ALTER TABLE revisions ADD COLUMN trees text NOT NULL DEFAULT '{}';
