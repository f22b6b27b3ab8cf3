# Cross-compiling laneql for aarch64 Linux with Debian's g++-aarch64-linux-gnu, to run the kernel
# and SQL tests under qemu-user (make test-arm64). Used as
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake ...
# Highway then compiles its aarch64 targets (NEON, SVE, SVE2 and their fixed-width variants) with
# run-time dispatch, exactly as the native x86 build compiles the x86 ladder.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Libraries and headers of the target come from the cross sysroot and from Debian's multiarch
# arm64 packages (libre2-dev:arm64, installed by tools/setup/setup.sh); programs are the host's.
set(LANEQL_AARCH64_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH ${LANEQL_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config answers for arm64 only (re2.pc from libre2-dev:arm64), never the host's x86 copies.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
# RE2's headers are architecture-independent and live in the host's /usr/include, which the cross
# compiler does not search. -idirafter adds it *after* the sysroot's own headers, so the
# sysroot's libc and libstdc++ headers always win and only what the sysroot lacks (re2/) is
# taken from there. The multiarch arm64 libraries are linked from /usr/lib/aarch64-linux-gnu.
set(CMAKE_CXX_FLAGS_INIT "-idirafter /usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-L/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,/usr/lib/aarch64-linux-gnu")

# ctest (and gtest discovery) run the programs under qemu-user. Which CPU it emulates comes from
# the QEMU_CPU environment variable (make test-arm64 runs cortex-a72 = NEON only, then max =
# SVE2). At run time the loader, libc and libstdc++ are Debian's multiarch arm64 ones in
# /lib/aarch64-linux-gnu (libre2-dev:arm64 brings them), not the cross sysroot's: with
# `-L /usr/aarch64-linux-gnu` qemu starts the sysroot's ld.so, which then loads the multiarch
# libc.so.6 listed in the host's ld.so.cache, a different build of glibc 2.36, and the first
# pthread_create spins forever on the mismatched loader state.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
