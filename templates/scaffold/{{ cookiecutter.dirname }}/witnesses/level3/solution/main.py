"""TODO: the reference with one stated business rule broken (the judge must give level 3)."""
