#ifndef PEKIT_CLUASHIM_H
#define PEKIT_CLUASHIM_H
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stddef.h>
#endif
