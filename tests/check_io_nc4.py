#!/usr/bin/python3
"""Python's netCDF4 reads the file test_io_nc4 writes: types, attributes,
fill values and dimension order.  usage: check_io_nc4.py FILE"""
import sys

import netCDF4
import numpy as np

with netCDF4.Dataset(sys.argv[1]) as ds:
    assert ds.data_model == "NETCDF4", ds.data_model
    assert list(ds.dimensions) == ["n", "x"], list(ds.dimensions)
    assert [len(d) for d in ds.dimensions.values()] == [3, 2]
    assert list(ds.variables) == ["x", "v", "t", "s"], list(ds.variables)
    assert ds.ncattrs() == ["title", "count", "empty"], ds.ncattrs()
    assert ds.title == "nc4 test" and isinstance(ds.title, str)
    assert ds.empty == ""
    assert ds.count.dtype == np.int32 and list(ds.count) == [1, 2, 3]
    x, v, t, s = (ds[k] for k in ("x", "v", "t", "s"))
    assert x.dimensions == ("x",) and x.dtype == np.float64 and x.units == "m"
    assert list(x[:]) == [10.5, 20.5]
    assert v.dimensions == ("n", "x") and v.dtype == np.int32
    assert v.ncattrs() == ["_FillValue", "long_name", "weights"], v.ncattrs()
    assert v._FillValue == -1 and v.long_name == "a test variable"
    assert list(v.weights) == [2.5, -1e300]
    data = v[:]
    assert data.mask.tolist() == [[False, False], [False, True], [False, False]]
    assert data.filled(0).tolist() == [[1, 2], [3, 0], [5, 6]]
    assert t.dtype == np.float32 and t[:].tolist() == [0.25, 0.5]
    assert s.dimensions == () and np.ma.is_masked(s[...])  # never written: netCDF's default fill
print("check_io_nc4: all checks passed")
