"""The on-disk prototype library: entries, drafts and revisions, templates and bundles (no Qt).

`store.Library` (blocking; the studio runs it on one worker thread) owns `<root>/library/`;
`bundle` reads and writes `.protobundle` files; `assets` holds AutoMobile's asset contract;
`templates` lists the shipped templates; `revisions` the revision log shared with the agent.
"""
