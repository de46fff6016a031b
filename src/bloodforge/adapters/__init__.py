"""Adapters to research frameworks (PettingZoo, OpenSpiel), through the public contract only.

Both frameworks want a fixed, numbered action space; bloodforge actions are texts whose set
changes with the position. The adapters number the *current* legal actions (in the order
`legal_actions` gives them, which is deterministic) and expose a fixed-size mask, so action `i`
means "the i-th legal action now". Observations are the seat's JSON observation, encoded as
UTF-8 bytes (`decode_observation` turns them back). The optional dependencies come with
`pip install 'bloodforge[research]'`; importing this package needs none of them.
"""
