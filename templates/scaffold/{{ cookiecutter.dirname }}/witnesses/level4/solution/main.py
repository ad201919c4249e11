"""TODO: the reference with only the edge rule broken (the judge must give level 4)."""
