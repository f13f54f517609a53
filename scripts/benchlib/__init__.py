"""What gallerygen's benchmarks share: one timer (`run_timed`), the peers
they are set against (`peers.find`), libraries of photos made in-repo
(`tiny_jpeg`, `make_photo_library`, `convert_photos`), and building and
inspecting a site (`build_binary`, `remove_site`, `snapshot`, `compare_trees`)."""
from . import peers, tiff  # noqa: F401
from .libraries import (ALBUMS, convert_photos, jpegs_in, make_clips, make_photo_library, plan_photos, synthetic_photo,  # noqa: F401
                        tiny_jpeg, write_dng)
from .sites import ROOT, build_binary, changed_files, compare_trees, remove_site, snapshot, state_folder, binary_under_test  # noqa: F401
from .timing import TABLE_HEADER, Run, median_pair, run_timed, serial, spread, table_row  # noqa: F401
