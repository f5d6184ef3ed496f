"""bed.py: the measurement bed of docs/studies/lint-realworld.md (the projects of the ten rows and
of held-out-25 to -35 that gave warnings), made again from the recreate scripts and linted.

Usage:
  python3 bench/lint-real/bed.py make GIT_ROOT BED [GROUP...]
  python3 bench/lint-real/bed.py lint SYNCSCOPE BED OUT [GROUP...]

GIT_ROOT/OWNER/NAME is a git folder (a bare clone will do) of each repository the groups'
recreate scripts name for the bed's projects (below). `make` writes BED/GROUP/srcs, dbs and
build, running only the steps of the bed's projects (the rest of each sample is not brought
here). `lint` runs study.sh (lint only, one project at a time, `nice -n 10`) on each project of
the groups into OUT (NAME.json, NAME.txt, NAME.summary.json, NAME.log); compare two OUTs with
compare.py and count them with warnings.py. GROUP: tenrows h25 h26 h27 h28 h29 h30 h31 h33 h34
h35 (default: all). Exit status 0, 1 when a step failed, 2 on usage.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recreate  # noqa: E402
import recreate_h17  # noqa: E402  (sources)

# GROUP: (recreate module, source folders kept (their submodules' rows too), database functions,
# study.sh names)
BED = {
    "tenrows": ("recreate", ["faiss", "xgboost", "kaldi", "lidar"], None,
                ["faiss", "xgboost", "xgboost-more", "kaldi", "lidar"]),
    "h25": ("recreate_h25", ["kmeans", "arch"], ["kmeans_db", "hot_db"], ["hot", "kmeans"]),
    "h26": ("recreate_h26", ["viennacl", "NPB-GPU"], ["viennacl_db", "npb_db"],
            ["viennacl", "npb-gpu"]),
    "h27": ("recreate_h27", ["gardenia", "altis", "XSBench"],
            ["gardenia_db", "altis_db", "xsbench_db"], ["gardenia", "altis", "xsbench"]),
    "h28": ("recreate_h28", ["chai", "astra-toolbox", "CUDASW4"],
            ["chai_db", "astra_db", "cudasw4_db"], ["astra", "cudasw4", "chai"]),
    "h29": ("recreate_h29", ["miniFE", "warp"], ["minife_db", "warp_db"], ["warp", "minife"]),
    "h30": ("recreate_h30", ["RSBench", "sphexa"], ["rsbench_db", "sphexa_db"],
            ["rsbench", "sphexa"]),
    "h31": ("recreate_h31", ["cudpp", "gvdb-voxels", "instant-ngp"],
            ["cudpp_db", "gvdb_db", "instant_ngp_db"], ["instant-ngp", "gvdb-voxels", "cudpp"]),
    "h33": ("recreate_h33", ["CUDALibrarySamples"], ["cudalibrarysamples_db"],
            ["cudalibrarysamples"]),
    "h34": ("recreate_h34", ["code-samples"], ["code_samples_db"], ["code-samples"]),
    "h35": ("recreate_h35", ["hornet"], ["hornet_db"], ["hornet"]),
}


def kept(table, folders):
    """The rows of a SOURCES table under the folders kept (a submodule's row with its project)."""
    return [row for row in table if any(row[0] == f or row[0].startswith(f + "/") for f in folders)]


def make(git_root, bed, group):
    module, folders, dbs, _ = BED[group]
    top = os.path.join(bed, group)
    if group == "tenrows":
        # recreate.py's steps for faiss, xgboost (with dmlc-core), kaldi (with OpenFst), lidar
        for folder, repo, commit in kept(recreate.SOURCES, folders):
            recreate.checkout(os.path.join(git_root, repo), commit,
                              os.path.join(top, "srcs", folder))
        recreate.cmake_configures(top, ("faiss", "xgboost"))
        recreate.cmake_dbs(top, ("faiss", "xgboost"))
        recreate.kaldi_db(top)
        recreate.lidar_db(top)
        return
    m = __import__(module)
    recreate_h17.sources(git_root, top, kept(m.SOURCES, folders))
    for name in getattr(m, "VIENNACL_TESTDATA", []) if "viennacl" in folders else []:
        path = os.path.join(top, "srcs", "viennacl", name)  # recreate_h26.sources' stand-ins
        if not os.path.exists(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").close()
    for db in dbs:
        getattr(m, db)(top)


def lint(syncscope, bed, out, group):
    status = 0
    top = os.path.join(bed, group)
    os.makedirs(out, exist_ok=True)
    for name in BED[group][3]:
        env = dict(os.environ, STUDY_MEASURE="lint")
        with open(os.path.join(out, name + ".study.log"), "w") as log:
            rc = subprocess.run(["nice", "-n", "10", os.path.join(HERE, "study.sh"), syncscope,
                                 os.path.join(top, "srcs"), os.path.join(top, "dbs"), out, name],
                                env=env, stdout=log, stderr=subprocess.STDOUT).returncode
        print(f"bed.py: {group} {name}: exit status {rc}", flush=True)
        status = status or (rc != 0)
    return status


def main(argv):
    if len(argv) < 4 or argv[1] not in ("make", "lint") or (argv[1] == "lint" and len(argv) < 5):
        sys.stderr.write(__doc__)
        return 2
    fixed = 3 if argv[1] == "make" else 4
    groups = argv[fixed + 1:] or list(BED)
    unknown = [g for g in groups if g not in BED]
    if unknown:
        sys.stderr.write(f"bed.py: unknown group {unknown[0]} (one of {' '.join(BED)})\n")
        return 2
    status = 0
    for group in groups:
        if argv[1] == "make":
            make(os.path.abspath(argv[2]), os.path.abspath(argv[3]), group)
        else:
            status |= lint(os.path.abspath(argv[2]), os.path.abspath(argv[3]),
                           os.path.abspath(argv[4]), group)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
