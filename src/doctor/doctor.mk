# fragment: src/doctor/doctor.mk
