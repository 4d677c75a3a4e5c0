// SPDX-License-Identifier: MIT
// Compiled into the add_subdirectory consumer when it chose no build type: its own code keeps
// its asserts, whatever build type weft defaults to when it is the top-level project.
#ifdef NDEBUG
#error "NDEBUG is defined in the consumer: add_subdirectory(weft) changed its build type"
#endif
int weft_consumer_asserts_on = 1;
