"""The platform modules shipped with this build, one file each."""
