package grade

import (
	"reflect"
	"testing"
)

// mountinfo lines of the three layouts: cgroup v1 beside an empty v2 (this machine, a hybrid),
// cgroup v2 alone (systemd's default since 2021), and v2 in a container (its own cgroup namespace,
// the root mounted).
const (
	hybridMounts = `22 27 0:21 / /proc rw,relatime - proc proc rw
31 30 0:26 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw
35 30 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
40 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 30 0:36 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct`
	v2Mounts        = `29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate`
	containerMounts = `612 600 0:26 / /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw`
)

func TestCgroupDirs(t *testing.T) {
	for _, c := range []struct {
		name, cgroups, mounts string
		want                  map[string]string
	}{
		{"hybrid", "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/36ad\n2:cpu,cpuacct:/grading\n0::/\n", hybridMounts,
			map[string]string{"memory": "/sys/fs/cgroup/memory/process_api/36ad", "pids": "/sys/fs/cgroup/pids",
				"cpu": "/sys/fs/cgroup/cpu,cpuacct/grading"}},
		{"v2", "0::/user.slice/user-1000.slice/grader.scope\n", v2Mounts,
			map[string]string{"": "/sys/fs/cgroup/user.slice/user-1000.slice/grader.scope"}},
		{"container", "0::/\n", containerMounts, map[string]string{"": "/sys/fs/cgroup"}},
	} {
		got, err := cgroupDirs(c.cgroups, c.mounts)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: cgroupDirs = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if got, err := cgroupDirs("0::/\n", "22 27 0:21 / /proc rw - proc proc rw"); err == nil {
		t.Errorf("no cgroup mounted: cgroupDirs = %v, want an error", got)
	}
}
