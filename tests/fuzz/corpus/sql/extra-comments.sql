SELECT /* a /* nested */ comment */ 1 -- to the end
, "quoted ""id""" FROM t;