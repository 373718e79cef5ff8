/*
 * boxsim: the reference button box (firmware/buttonbox) running in simavr, its UART0 on a pty.
 *
 *   boxsim FIRMWARE.elf [--pty LINK] [--clock FILE] [--fast] [--seconds S] [--trace]
 *
 * The board opens the pty exactly as it opens a USB serial adapter (buttons.port = LINK, or the /dev/pts/N
 * printed first). The test (or a person) drives the box's pins through stdin/stdout, one line each:
 *
 *   stdout  PTY <path>                  first line: the port to open
 *           PIN <d> <0|1> <t_us>        a pin (Arduino Uno numbering D0..D19) changed level at box time t_us:
 *                                       a lamp the firmware drives, or a button this harness drives
 *           TIME <t_us>                 answer to `time?`
 *           PINS <t_us> <levels>        answer to `pins?`: the levels of D0..D19 as a string of 0/1
 *           ERR <reason>                a command that did not parse (nothing was done)
 *   stdin   press <d> [+<us>]           the button on pin d closes to GND, now or <us> box microseconds later
 *           release <d> [+<us>]         it opens again: the pin reads the pull-up the firmware enabled
 *           time?  |  pins?  |  quit
 *
 * Delays count from the box time at which the line is read, so the lines of one write keep exact spacings
 * in the box's clock whatever the host's speed. Closing stdin ends the run (unless --seconds bounds it).
 *
 * Time: the simulated clock is held to wall time (the box's 16 MHz crystal): when the simulation is ahead it
 * waits in poll() on the pty and stdin; when it falls behind (a loaded host) it runs flat out to catch up, but
 * never carries more than MAX_LAG_US of lag: beyond that the box's clock gives the time up (as a slow crystal
 * would), so a press is never stamped more than that before the moment its command arrived. The speed and any
 * time given up are printed on stderr at the end. --fast drops the hold (to measure the raw speed).
 *
 * --clock FILE publishes the box's clock: 16 bytes, a sequence number then the box time in cycles (both u64,
 * little-endian), rewritten every slice under the sequence (odd while writing). A test gives it to the board as
 * the board's clock, so board and box share one time however fast the host runs the simulation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>
#include <sim_io.h>
#include <avr_ioport.h>
#include <avr_uart.h>

#define PINS 20                  /* Uno: D0-D7 = PD0-7, D8-D13 = PB0-5, D14-D19 (A0-A5) = PC0-5 */
#define SLICE_US 200             /* simulated time between looks at the pty and stdin */
#define MAX_LAG_US 10000          /* at most this far behind wall time (see above) */
#define MAX_PENDING 64
#define OUT_MAX 65536

static avr_t *avr;
static avr_irq_t *pin_irq[PINS];
static avr_ioport_external_t held_low[3];   /* per port B, C, D: which pins a closed button pulls to GND */
static avr_irq_t *uart_in;
static int uart_blocked;                    /* the UART's input FIFO said XOFF */
static int master_fd = -1, slave_fd = -1;
static const char *link_path;
static int trace;
static volatile sig_atomic_t stopping;
static volatile uint64_t *shared_clock;      /* --clock: {sequence, cycles} */

static uint8_t rx[4096];                     /* board -> box bytes not yet given to the UART */
static size_t rx_len;
static uint8_t out[OUT_MAX];                 /* box -> board bytes not yet written to the pty */
static size_t out_len;
static unsigned long bytes_to_board, bytes_from_board, bytes_dropped;

struct pending { avr_cycle_count_t at; int pin, level; };
static struct pending pending[MAX_PENDING];
static int n_pending;

static char port_of(int d) { return d < 8 ? 'D' : d < 14 ? 'B' : 'C'; }
static int bit_of(int d) { return d < 8 ? d : d < 14 ? d - 8 : d - 14; }
static int port_index(char port) { return port == 'B' ? 0 : port == 'C' ? 1 : 2; }

static uint64_t box_us(void) { return avr->cycle * 1000000ULL / avr->frequency; }

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- pins ------------------------------------------------------------------------------------------- */
static void pin_changed(avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	printf("PIN %d %u %llu\n", (int)(intptr_t)param, value & 1, (unsigned long long)box_us());
}

/* A button between the pin and GND: closed, it holds the pin low whatever the firmware's pull-up does;
 * open, the pin reads its pull-up (1 if the firmware set PORT with DDR clear, else 0: a floating pin). */
static void drive_button(int d, int closed)
{
	char port = port_of(d);
	uint8_t mask = 1 << bit_of(d);
	avr_ioport_external_t *ext = &held_low[port_index(port)];
	int level = 0;
	if (closed) {
		ext->mask |= mask;
		ext->value &= ~mask;
	} else {
		avr_ioport_state_t state;
		ext->mask &= ~mask;
		if (avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE(port), &state) == 0)
			level = !(state.ddr & mask) && (state.port & mask);
	}
	avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(port), ext);
	avr_raise_irq(pin_irq[d], level);
}

static void apply_due(void)
{
	int kept = 0;
	for (int i = 0; i < n_pending; i++) {       /* in the order they were given: same-cycle ties keep it */
		if (pending[i].at <= avr->cycle)
			drive_button(pending[i].pin, pending[i].level == 0);
		else
			pending[kept++] = pending[i];
	}
	n_pending = kept;
}

static avr_cycle_count_t next_due(avr_cycle_count_t limit)
{
	for (int i = 0; i < n_pending; i++)
		if (pending[i].at < limit)
			limit = pending[i].at;
	return limit;
}

/* --- UART ------------------------------------------------------------------------------------------- */
static void uart_output(avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)param;
	if (out_len < OUT_MAX)
		out[out_len++] = (uint8_t)value;
	else
		bytes_dropped++;                    /* nobody reads the pty: a real UART loses bytes too */
}

static void uart_xon(avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)value; (void)param;
	uart_blocked = 0;
}

static void uart_xoff(avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)param;
	uart_blocked = value != 0;
}

static void feed_uart(void)
{
	size_t given = 0;
	while (given < rx_len && !uart_blocked)   /* XOFF comes inside avr_raise_irq once its FIFO is full */
		avr_raise_irq(uart_in, rx[given++]);
	memmove(rx, rx + given, rx_len - given);
	rx_len -= given;
}

static void flush_out(void)
{
	while (out_len > 0) {
		ssize_t n = write(master_fd, out, out_len);
		if (n <= 0)
			return;                         /* EAGAIN: the pty is full; try after the next slice */
		if (trace)
			fprintf(stderr, "box> %.*s", (int)n, (const char *)out);
		bytes_to_board += n;
		memmove(out, out + n, out_len - n);
		out_len -= n;
	}
}

static void read_board(void)
{
	while (rx_len < sizeof rx) {
		ssize_t n = read(master_fd, rx + rx_len, sizeof rx - rx_len);
		if (n <= 0)
			return;
		if (trace)
			fprintf(stderr, "board> %.*s", (int)n, (const char *)rx + rx_len);
		bytes_from_board += n;
		rx_len += n;
	}
}

/* --- control channel -------------------------------------------------------------------------------- */
static void command(char *line)
{
	char verb[16];
	int pin, used = 0;
	long delay = 0;
	line[strcspn(line, "\r\n")] = '\0';
	if (strcmp(line, "time?") == 0) {
		printf("TIME %llu\n", (unsigned long long)box_us());
	} else if (strcmp(line, "pins?") == 0) {
		char levels[PINS + 1];
		for (int d = 0; d < PINS; d++)
			levels[d] = pin_irq[d]->value ? '1' : '0';
		levels[PINS] = '\0';
		printf("PINS %llu %s\n", (unsigned long long)box_us(), levels);
	} else if (strcmp(line, "quit") == 0) {
		stopping = 1;
	} else if (sscanf(line, "%15s %d%n", verb, &pin, &used) == 2 &&
			(strcmp(verb, "press") == 0 || strcmp(verb, "release") == 0)) {
		char *rest = line + used;
		while (*rest == ' ')
			rest++;
		if (*rest == '+') {
			char *end;
			delay = strtol(rest + 1, &end, 10);
			rest = end;
		}
		if (pin < 0 || pin >= PINS || delay < 0 || *rest != '\0') {
			printf("ERR pin 0..%d and an optional +microseconds expected: %s\n", PINS - 1, line);
		} else if (n_pending == MAX_PENDING) {
			printf("ERR more than %d pin changes pending: %s\n", MAX_PENDING, line);
		} else {
			struct pending *p = &pending[n_pending++];
			p->at = avr->cycle + (avr_cycle_count_t)delay * avr->frequency / 1000000;
			p->pin = pin;
			p->level = strcmp(verb, "press") == 0 ? 0 : 1;
		}
	} else if (line[0] != '\0') {
		printf("ERR unknown command: %s\n", line);
	}
}

static int read_commands(void)
{
	static char buf[4096];
	static size_t len;
	ssize_t n = read(STDIN_FILENO, buf + len, sizeof buf - 1 - len);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		return 0;                               /* stdin closed: the driver has gone */
	if (n < 0)
		return 1;
	len += n;
	buf[len] = '\0';
	char *start = buf, *end;
	while ((end = strchr(start, '\n')) != NULL) {   /* every complete line at this same box time */
		*end = '\0';
		command(start);
		start = end + 1;
	}
	len -= start - buf;
	memmove(buf, start, len);
	if (len == sizeof buf - 1)
		len = 0;                                /* a line too long to be a command */
	return 1;
}

/* --- set-up ----------------------------------------------------------------------------------------- */
static void open_pty(void)
{
	char name[128];
	struct termios raw;
	if (openpty(&master_fd, &slave_fd, name, NULL, NULL) < 0) {
		perror("boxsim: openpty");
		exit(1);
	}
	tcgetattr(slave_fd, &raw);
	cfmakeraw(&raw);                            /* no echo, no line discipline: bytes as they are */
	tcsetattr(slave_fd, TCSANOW, &raw);
	fcntl(master_fd, F_SETFL, fcntl(master_fd, F_GETFL) | O_NONBLOCK);
	const char *shown = name;
	if (link_path) {                            /* a stable path: replace the link atomically */
		char temp[4200];
		snprintf(temp, sizeof temp, "%s.%d.tmp", link_path, (int)getpid());
		unlink(temp);
		if (symlink(name, temp) < 0 || rename(temp, link_path) < 0) {
			perror("boxsim: symlink");
			exit(1);
		}
		shown = link_path;
	}
	printf("PTY %s\n", shown);
	fflush(stdout);
}

/* simavr's own logger prints its chatter on stdout, which is the control channel here: stderr instead. */
static void log_to_stderr(avr_t *a, const int level, const char *format, va_list ap)
{
	(void)a;
	if (level <= LOG_WARNING || trace)
		vfprintf(stderr, format, ap);
}

static void open_clock(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 2 * sizeof(uint64_t)) < 0) {
		perror("boxsim: --clock");
		exit(1);
	}
	shared_clock = mmap(NULL, 2 * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (shared_clock == MAP_FAILED) {
		perror("boxsim: --clock mmap");
		exit(1);
	}
}

static void publish_clock(void)
{
	if (shared_clock == NULL)
		return;
	shared_clock[0]++;                          /* odd: a reader retries */
	__sync_synchronize();
	shared_clock[1] = avr->cycle;
	__sync_synchronize();
	shared_clock[0]++;
}

static void on_signal(int sig) { (void)sig; stopping = 1; }
static void no_sleep(avr_t *a, avr_cycle_count_t how_long) { (void)a; (void)how_long; }

static void usage(void)
{
	fprintf(stderr, "usage: boxsim FIRMWARE.elf [--pty LINK] [--clock FILE] [--fast] [--seconds S] [--trace]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *elf = NULL, *clock_path = NULL;
	int fast = 0;
	double seconds = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--pty") == 0 && i + 1 < argc) link_path = argv[++i];
		else if (strcmp(argv[i], "--clock") == 0 && i + 1 < argc) clock_path = argv[++i];
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
		else if (strcmp(argv[i], "--fast") == 0) fast = 1;
		else if (strcmp(argv[i], "--trace") == 0) trace = 1;
		else if (argv[i][0] != '-' && elf == NULL) elf = argv[i];
		else usage();
	}
	if (elf == NULL)
		usage();

	avr_global_logger_set(log_to_stderr);
	elf_firmware_t firmware;
	memset(&firmware, 0, sizeof firmware);
	if (elf_read_firmware(elf, &firmware) != 0) {
		fprintf(stderr, "boxsim: %s: not a readable AVR ELF\n", elf);
		return 1;
	}
	if (firmware.mmcu[0] == '\0')               /* the sketch carries no .mmcu section: an Uno */
		strcpy(firmware.mmcu, "atmega328p");
	if (firmware.frequency == 0)
		firmware.frequency = 16000000;
	avr = avr_make_mcu_by_name(firmware.mmcu);
	if (avr == NULL) {
		fprintf(stderr, "boxsim: simavr has no MCU %s\n", firmware.mmcu);
		return 1;
	}
	avr_init(avr);
	avr_load_firmware(avr, &firmware);
	avr->frequency = firmware.frequency;
	avr->sleep = no_sleep;                      /* the hold to wall time below is the only waiting */

	uint32_t flags = 0;                         /* no console echo, no usleep in the firmware's polls */
	avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
	uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_output, NULL);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon, NULL);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff, NULL);
	for (int d = 0; d < PINS; d++) {
		pin_irq[d] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port_of(d)), bit_of(d));
		avr_irq_register_notify(pin_irq[d], pin_changed, (void *)(intptr_t)d);
	}

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);     /* flushed once a slice */
	if (clock_path)
		open_clock(clock_path);
	publish_clock();
	open_pty();
	fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);

	const avr_cycle_count_t slice = (avr_cycle_count_t)avr->frequency * SLICE_US / 1000000;
	const avr_cycle_count_t end = seconds > 0 ? (avr_cycle_count_t)(seconds * avr->frequency) : 0;
	int stdin_open = 1, status = 0;
	unsigned long give_ups = 0;
	double started = wall_seconds(), given_up = 0;
	while (!stopping && (end == 0 || avr->cycle < end)) {
		avr_cycle_count_t stop = next_due(avr->cycle + slice);
		while (avr->cycle < stop) {
			int state = avr_run(avr);
			if (state == cpu_Done || state == cpu_Crashed) {
				fprintf(stderr, "boxsim: the firmware %s at %llu us\n", state == cpu_Done ? "stopped" : "crashed",
						(unsigned long long)box_us());
				stopping = 1;
				status = 3;
				break;
			}
		}
		apply_due();
		publish_clock();
		flush_out();
		fflush(stdout);

		double ahead = fast ? 0 : (double)avr->cycle / avr->frequency - (wall_seconds() - started);
		if (ahead < -MAX_LAG_US / 1e6) {        /* the host cannot keep up: give the excess up */
			started += -MAX_LAG_US / 1e6 - ahead;
			given_up += -MAX_LAG_US / 1e6 - ahead;
			give_ups++;
		}
		struct pollfd fds[2] = { { master_fd, rx_len < sizeof rx ? POLLIN : 0, 0 }, { STDIN_FILENO, stdin_open ? POLLIN : 0, 0 } };
		struct timespec wait = { 0, 0 };
		if (ahead > 0) {
			wait.tv_sec = (time_t)ahead;
			wait.tv_nsec = (long)((ahead - (double)wait.tv_sec) * 1e9);
		}
		if (ppoll(fds, 2, &wait, NULL) > 0) {
			if (fds[0].revents & POLLIN)
				read_board();
			if (stdin_open && (fds[1].revents & (POLLIN | POLLHUP))) {
				stdin_open = read_commands();
				if (!stdin_open && end == 0)
					stopping = 1;
			}
		}
		feed_uart();
	}

	double wall = wall_seconds() - started + given_up, simulated = (double)avr->cycle / avr->frequency;
	fprintf(stderr, "boxsim: %.3f s simulated in %.3f s wall (%.2fx real time%s); %.3f s given up in %lu "
			"lags over %d ms; %lu bytes to the board, %lu from it, %lu dropped\n", simulated, wall,
			wall > 0 ? simulated / wall : 0.0, fast ? ", --fast" : ", held to wall time", given_up, give_ups,
			MAX_LAG_US / 1000, bytes_to_board, bytes_from_board, bytes_dropped);
	fflush(stdout);
	if (link_path)
		unlink(link_path);
	return status;
}
