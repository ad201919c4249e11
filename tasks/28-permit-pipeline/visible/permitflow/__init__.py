"""permitflow: intake and validation of Eastbrook building-permit applications.

The intake desk receives applications from two systems: the e-plan portal (monthly JSON
exports) and the counter (monthly XML exports keyed in by the clerks). ``permitflow`` loads
both into one SQLite database and checks every application against the parcel registry, the
zoning rules, the document requirements and the fee table.

Status: work in progress (see the TODO notes in the modules).
"""

__version__ = "0.3.0.dev0"
