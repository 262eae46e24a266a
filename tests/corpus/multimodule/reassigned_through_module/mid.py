from deps import check_stock as _check

check = _check
