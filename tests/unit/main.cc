// Catch2 main for the unit test binary (kept alone so it compiles once).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
