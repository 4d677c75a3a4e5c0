// SPDX-License-Identifier: MIT
// Empty on purpose: the target compiling it builds the tests' precompiled header
// (tests/CMakeLists.txt, weft_test_pch), which CMake attaches to a target with a source.
