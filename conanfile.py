# SPDX-License-Identifier: MIT
# Conan 2 recipe: `conan create . -s compiler.cppstd=20` builds libweft and runs test_package/.
import os
import re

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir


class WeftConan(ConanFile):
    name = "weft"
    description = "Work-stealing parallel algorithms for C++20"
    license = "MIT"
    topics = ("parallelism", "work-stealing", "fork-join")
    # "library": static or shared from the `shared` option (static by default). A fixed
    # "static-library" would mislabel shared=True builds: docs/decisions/0003-conan-package-type.md
    package_type = "library"
    settings = "os", "arch", "compiler", "build_type"
    options = {"shared": [True, False], "fPIC": [True, False]}
    default_options = {"shared": False, "fPIC": True}
    exports_sources = "CMakeLists.txt", "cmake/*", "include/*", "src/*", "LICENSE"

    def set_version(self):
        # include/weft/version.hpp is the single source of the version, as for CMake.
        text = load(self, os.path.join(self.recipe_folder, "include", "weft", "version.hpp"))
        part = lambda p: re.search(rf"#define WEFT_VERSION_{p} (\d+)", text).group(1)
        self.version = ".".join(part(p) for p in ("MAJOR", "MINOR", "PATCH"))

    def config_options(self):
        if self.settings.os == "Windows":
            del self.options.fPIC

    def configure(self):
        if self.options.shared:
            self.options.rm_safe("fPIC")

    def layout(self):
        cmake_layout(self)

    def validate(self):
        check_min_cppstd(self, 20)

    def generate(self):
        toolchain = CMakeToolchain(self)
        toolchain.cache_variables["WEFT_BUILD_TESTS"] = False
        toolchain.cache_variables["WEFT_BUILD_BENCHMARKS"] = False
        # Top-level here, so every WEFT_BUILD_* option would default on; examples/ is not
        # among exports_sources, and add_subdirectory(examples) would fail.
        toolchain.cache_variables["WEFT_BUILD_EXAMPLES"] = False
        toolchain.cache_variables["WEFT_INSTALL"] = True
        toolchain.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        CMake(self).install()
        # Conan's generators write the consumer files from package_info() below.
        rmdir(self, os.path.join(self.package_folder, "lib", "cmake"))
        rmdir(self, os.path.join(self.package_folder, "lib", "pkgconfig"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "weft")
        self.cpp_info.set_property("cmake_target_name", "weft::weft")
        self.cpp_info.set_property("pkg_config_name", "weft")
        self.cpp_info.libs = ["weft"]
        if self.settings.os in ("Linux", "FreeBSD"):
            self.cpp_info.system_libs = ["pthread"]
