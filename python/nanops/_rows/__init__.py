"""The registry's rows by family (:mod:`nanops._registry` joins them in order)."""
