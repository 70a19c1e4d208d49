"""The on-disk prototype library: entries, drafts and revisions, templates and bundles (no Qt).

`store.Library` (blocking) and `aio.AsyncLibrary` (for the event loop) own `<root>/library/`;
`bundle` reads and writes `.protobundle` files; `assets` holds AutoMobile's asset contract;
`templates` lists the shipped templates; `revisions` the revision log shared with the agent.
"""
